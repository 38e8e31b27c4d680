/**
 * The live suite (`npm run test:live`): every scenario of live/scenarios/ run through the real
 * CLI against the scripted model, for each row of live/harnesses.ts whose CLI installed (the
 * vitest config installs them and says which it skips, and why).
 */
import { describe, expect, inject, test } from 'vitest';
import { comparable, driftOf } from './drift.js';
import { liveHarnesses } from './harnesses.js';
import type { Installed } from './install.js';
import { runScenario } from './run.js';
import type { Expected } from './scenario.js';
import { scenarios } from './scenarios/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The rows that run, by id, with their installed CLI. */
    liveRows: Record<string, Installed>;
  }
}

const rows = inject('liveRows');

/**
 * Scenarios whose expected events predate the merge of the contract revision 2026-12-05 (Claude Code's shell
 * directory, `working_directory`, API errors) with the permissions issue's `defaults` round: their expectations are
 * being rewritten under issues 37 and 44, which stay open until they run again.
 */
const pendingRevision = new Set([
  'claude-code/shell',
  'claude-code/api error',
  'claude-code/defaults',
  'codex/defaults',
  'opencode/shell',
  'copilot/defaults',
  'kilo/shell',
  'qwen-acp/defaults',
]);

for (const row of liveHarnesses) {
  const cli = rows[row.id];
  if (!cli) continue;
  describe.concurrent(`${row.id} (${cli.cli.pkg}@${cli.version})`, () => {
    for (const scenario of scenarios[row.id] ?? []) {
      test.skipIf(pendingRevision.has(`${row.id}/${scenario.name}`))(scenario.name, async ({ task }) => {
        await runScenario(row, cli, scenario, (run) => {
          const events = comparable(run.events);
          const expected = scenario.events(expectedFor(run.place.workspace, run.serverUrl, cli));
          task.meta.live = { row: row.id, drift: driftOf(expected, events), leftovers: run.leftovers };
          const requests = run.requests.map(
            (r) => `${r.outcome} ${r.path} ${r.conversation ?? ''}#${r.turn ?? ''} ${r.reason ?? ''}`,
          );
          const context =
            `${row.id} / ${scenario.name}: the run's events ` +
            `were\n${events.map((e) => JSON.stringify(e)).join('\n')}\nrequests:\n${requests.join('\n')}`;
          expect(
            run.requests.filter((r) => r.outcome === 'unexpected'),
            context,
          ).toEqual([]);
          expect(
            run.requests
              .filter((r) => r.protocol !== row.protocol && r.outcome !== 'probe')
              .map((r) => `${r.protocol} ${r.path}`),
            context,
          ).toEqual([]);
          expect(run.turnsPlayed.every(Boolean), `${context}\nturns played: ${JSON.stringify(run.turnsPlayed)}`).toBe(
            true,
          );
          // An ACP run's exit code is its conversation's (acp.md "How the run ends"), however its agent then exits.
          expect(run.result.exitCode, context).toBe(scenario.exitCode);
          expect(events, context).toEqual(expected);
          if (scenario.unchanged) expect(run.changed, `${context}\nthe workspace changed`).toEqual([]);
          if (scenario.tokens) expect(run.result.metrics.tokens).toEqual(scenario.tokens);
        });
      });
    }
  });
}

function expectedFor(workspace: string, url: string, cli: Installed): Expected {
  return {
    workspace,
    url,
    path: (relative) => `${workspace}/${relative}`,
    exited: (code) => ({ type: 'error', code: 'exit_code', message: `${cli.bin} exited with code ${code}` }),
  };
}

declare module 'vitest' {
  interface TaskMeta {
    live?: { row: string; drift?: ReturnType<typeof driftOf>; leftovers: string[] };
  }
}
