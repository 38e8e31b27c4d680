/**
 * Installs the agent CLIs of live/clis.ts into a cache folder, one folder per package and
 * version (`<cache>/<pkg>@<version>`), with `npm install --ignore-scripts`: nothing runs at
 * install time (the suite starts each CLI's own binary, so no postinstall is needed), and a
 * folder once installed is reused. `LIVE_VERSIONS=latest` installs the registry's newest
 * versions instead of the pinned ones.
 *
 * As a script (`tsx live/install.ts [--latest]`) it installs and prints what it did.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clis, type Cli } from './clis.js';

const run = promisify(execFile);

/** Where the CLIs are installed: `LIVE_CACHE`, else a folder under the user's cache shared by every clone. */
export const cacheDir =
  process.env.LIVE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'harness-events-live');

export interface Installed {
  cli: Cli;
  version: string;
  /** The install folder. */
  dir: string;
  /** The executable's absolute path. */
  bin: string;
  /** What every run's environment gets: the CLI's unpack folder (Cli.unpackEnv). */
  env: Record<string, string>;
  /** How it came to be this version, when it is not simply the one asked for. */
  note?: string;
}

export interface NotInstalled {
  cli: Cli;
  version?: string;
  /** Why it could not be installed: printed by the suite, which skips its scenarios. */
  reason: string;
}

export type InstallResult = Installed | NotInstalled;

export function isInstalled(result: InstallResult): result is Installed {
  return 'bin' in result;
}

/**
 * Installs every CLI, or the ones of `only` (ids), one after the other (the machine is small), pinned or latest:
 * `npm run live:install`. With `install: false` (the live suite's config) only what is already in the cache is
 * found, the rest skipped with the command that installs it: loading a config file never installs 2 GB of CLIs.
 */
export async function installAll(
  mode: 'pinned' | 'latest' = 'pinned',
  log: (line: string) => void = () => {},
  { install = true, only }: { install?: boolean; only?: ReadonlySet<string> } = {},
): Promise<InstallResult[]> {
  const results: InstallResult[] = [];
  for (const cli of clis) if (!only || only.has(cli.id)) results.push(await installCli(cli, mode, log, install));
  return results;
}

export async function installCli(
  cli: Cli,
  mode: 'pinned' | 'latest',
  log: (line: string) => void,
  install = true,
): Promise<InstallResult> {
  let version = cli.pinned;
  let note: string | undefined;
  if (mode === 'latest') {
    try {
      ({ version, note } = await newestInstallable(cli));
    } catch (error) {
      return { cli, reason: `could not ask the registry for ${cli.pkg}'s newest version: ${firstLine(error)}` };
    }
  }
  const dir = join(cacheDir, `${cli.pkg.replace('/', '+')}@${version}`);
  const entry = join(dir, cli.bin);
  const marker = join(dir, 'installed.json');
  const env: Record<string, string> = cli.unpackEnv ? { [cli.unpackEnv]: join(dir, 'unpacked') } : {};
  if (existsSync(marker) && existsSync(entry)) return { cli, version, dir, bin: executable(dir, cli), env, note };
  if (!install) {
    const command = `${mode === 'latest' ? 'LIVE_VERSIONS=latest ' : ''}npm run live:install`;
    return { cli, version, reason: `${cli.pkg}@${version} is not installed in ${cacheDir} (${command} installs it)` };
  }
  log(`live: installing ${cli.pkg}@${version} into ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ private: true, description: `the live suite's ${cli.pkg}@${version}` }) + '\n',
  );
  const started = Date.now();
  try {
    // cwd is the folder itself: npm must not read a same-named folder as a package spec.
    await run(
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${cli.pkg}@${version}`],
      {
        cwd: dir,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (error) {
    return {
      cli,
      version,
      reason: `npm install ${cli.pkg}@${version} failed: ${firstLine((error as { stderr?: string }).stderr || error)}`,
    };
  }
  if (!existsSync(entry)) {
    return {
      cli,
      version,
      reason:
        `${cli.pkg}@${version} installed without its executable ${cli.bin} (is ` +
        `${cli.platformPkg ?? 'its platform package'} published for this version and platform?)`,
    };
  }
  const bin = executable(dir, cli);
  if (cli.unpackEnv) {
    try {
      await run(bin, ['--version'], { env: { ...process.env, ...env }, timeout: 120_000 });
    } catch (error) {
      return { cli, version, reason: `${bin} --version failed: ${firstLine(error)}` };
    }
  }
  writeFileSync(
    marker,
    JSON.stringify({ pkg: cli.pkg, version, bin: cli.bin, seconds: (Date.now() - started) / 1000 }) + '\n',
  );
  log(`live: installed ${cli.pkg}@${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { cli, version, dir, bin, env, note };
}

/**
 * What spawnHarness starts: the CLI's executable, or for a `.js` entry point a shim beside the
 * install that execs it with the node on PATH (a command of its own, as the library's command
 * lines need, whatever mode the package gave the file).
 */
function executable(dir: string, cli: Cli): string {
  if (!cli.bin.endsWith('.js')) return join(dir, cli.bin);
  const shim = join(dir, `${cli.id}.sh`);
  writeFileSync(shim, `#!/bin/sh\nexec node "${join(dir, cli.bin)}" "$@"\n`, { mode: 0o755 });
  return shim;
}

/**
 * The registry's newest version of the CLI; when its platform package lags behind (Kilo's
 * does), the newest version both packages have, with a note saying so.
 */
async function newestInstallable(cli: Cli): Promise<{ version: string; note?: string }> {
  const newest = (await npmView(cli.pkg, 'version')) as string;
  if (!cli.platformPkg) return { version: newest };
  const platformVersions = new Set((await npmView(cli.platformPkg, 'versions')) as string[]);
  if (platformVersions.has(newest)) return { version: newest };
  const both = ((await npmView(cli.pkg, 'versions')) as string[]).filter(
    (v) => platformVersions.has(v) && !v.includes('-'),
  );
  const version = both.sort(compareVersions).at(-1);
  if (!version) throw new Error(`${cli.platformPkg} has no version in common with ${cli.pkg}`);
  return {
    version,
    note:
      `${cli.pkg}@${newest} needs ${cli.platformPkg}@${newest}, which the registry does not have: ${version} ` +
      `is the newest whose binary installs`,
  };
}

async function npmView(pkg: string, field: string): Promise<unknown> {
  const { stdout } = await run('npm', ['view', pkg, field, '--json'], { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout);
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '' && !line.includes('EBADENGINE'))
      ?.trim() ?? text.trim()
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = process.argv.includes('--latest') || process.env.LIVE_VERSIONS === 'latest' ? 'latest' : 'pinned';
  for (const result of await installAll(mode, console.log)) {
    console.log(
      isInstalled(result)
        ? `${result.cli.pkg}@${result.version}: ${result.bin}${result.note ? ` (${result.note})` : ''}`
        : `${result.cli.pkg}: not installed: ${result.reason}`,
    );
  }
}
