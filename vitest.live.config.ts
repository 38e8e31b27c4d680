/**
 * `npm run test:live`: the live suite, apart from `npm test`. The CLIs are installed by `npm run live:install`
 * (never by loading this file); here, before any test file loads, the installed ones are found, so that a CLI that
 * is not installed (or lacks a program its tools need) is skipped with a message naming it and why, and the rows
 * that run are handed to the suite. `LIVE_VERSIONS=latest` runs the newest versions and prints the drift report;
 * `LIVE_ROWS=a,b` runs (and `npm run live:install` with it installs the CLIs of) those rows of live/harnesses.ts only.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { defineConfig } from 'vitest/config';
import { liveHarnesses } from './live/harnesses.js';
import { installAll, isInstalled, type Installed } from './live/install.js';
import { LiveReporter, type Skipped } from './live/reporter.js';

export default defineConfig(async () => {
  const latest = process.env.LIVE_VERSIONS === 'latest';
  // Every run's processes carry this suite's id (live/run.ts), so the teardown finds what they left.
  process.env.HARNESS_EVENTS_LIVE_SUITE = randomUUID();
  const only = process.env.LIVE_ROWS ? new Set(process.env.LIVE_ROWS.split(',')) : undefined;
  const selected = liveHarnesses.filter((row) => !only || only.has(row.id));
  // What `npm run live:install` put in the cache: finding it installs nothing.
  const installs = await installAll(latest ? 'latest' : 'pinned', console.log, {
    install: false,
    only: new Set(selected.map((row) => row.cli)),
  });
  const rows: Record<string, Installed> = {};
  const skipped: Skipped[] = [];
  for (const row of selected) {
    const install = installs.find((i) => i.cli.id === row.cli)!;
    const missing = (row.needs ?? []).filter((program) => !onPath(program));
    if (!isInstalled(install)) skipped.push({ id: row.id, reason: install.reason });
    else if (missing.length)
      skipped.push({
        id: row.id,
        reason: `its tools need ${missing.join(', ')} on PATH (Debian: apt-get install ripgrep)`,
      });
    else {
      rows[row.id] = install;
      if (install.note) console.log(`live: ${row.id}: ${install.note}`);
    }
  }
  for (const { id, reason } of skipped) console.log(`live: skipping ${id}: ${reason}`);
  const versions = Object.fromEntries(
    Object.entries(rows).map(([id, install]) => [id, `${install.cli.pkg}@${install.version}`]),
  );
  return {
    test: {
      include: ['live/**/*.live.ts'],
      globalSetup: ['live/teardown.ts'],
      provide: { liveRows: rows },
      // Two CLIs at a time: they mostly wait on each other and the scripted model.
      maxConcurrency: Number(process.env.LIVE_CONCURRENCY ?? 2),
      testTimeout: 660_000,
      reporters: ['default', new LiveReporter(skipped, versions, latest)],
    },
  };
});

function onPath(program: string): boolean {
  try {
    execFileSync('which', [program], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
