/**
 * Cline's process hazards (cline.md "Quirks"), on the real CLI offline: the hub daemon a first
 * run on a fresh HOME leaves behind, and SIGTERM ignored during a turn. Each test reads the
 * process table: the run's process group, and every process whose environment holds the run's HOME.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { spawnHarness, type HarnessEvent, type SpawnHarnessOptions } from '../lib/index.js';
import { startModelServer, type Turn } from '../lib/testing/index.js';
import { launch, liveHarnesses } from './harnesses.js';
import { createPlace, type Place } from './workspace.js';

const row = liveHarnesses.find((r) => r.id === 'cline')!;
const cli = inject('liveRows').cline;

interface Found {
  pid: number;
  pgid: number;
  command: string;
}

/** The live processes whose environment has `HOME=<home>`, with their process group and command line. */
function processesOf(home: string): Found[] {
  const found: Found[] = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, , pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      found.push({ pid: Number(name), pgid: Number(pgid), command });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

function kill(found: readonly Found[]): void {
  for (const { pid } of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Waits until `check` holds, looking every 100 ms; a bound for a loaded machine, not a measurement. */
async function until(check: () => boolean, withinMs = 30_000): Promise<boolean> {
  for (let waited = 0; waited < withinMs; waited += 100) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

const baseEnv = (place: Place) => ({
  PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
  HOME: place.home,
  LANG: 'C.UTF-8',
  SHELL: '/bin/bash',
  TMPDIR: place.tmp,
});

const hubDaemon = (found: Found) => found.command.includes('--cline-hub-daemon');

interface Setting {
  place: Place;
  url: string;
}

/** A fresh place and a scripted model playing `turns` for `prompt`; whatever the HOME still runs is killed after. */
async function inPlace(prompt: string, turns: Turn[], body: (setting: Setting) => Promise<void>): Promise<void> {
  const place = createPlace();
  const server = await startModelServer({ conversations: [{ name: 'main', match: { user: prompt }, turns }] });
  try {
    await body({ place, url: server.url });
  } finally {
    kill(processesOf(place.home));
    await server.close();
    place.remove();
  }
}

/** The library's Cline run, as the live suite starts it. */
function startCline({ place, url }: Setting, prompt: string, more: Partial<SpawnHarnessOptions> = {}) {
  const { env, ...options } = launch(row, place, url, [...(more.extraArgs ?? [])]);
  return spawnHarness({
    harness: 'cline',
    command: cli!.bin,
    prompt,
    reject: false,
    extendEnv: false,
    ...more,
    ...options,
    cwd: place.workspace,
    env: { ...baseEnv(place), ...env },
  } as SpawnHarnessOptions);
}

/** What is left running with the HOME, killed; their command lines. */
function leftOver(place: Place): string[] {
  const left = processesOf(place.home);
  kill(left);
  return left.map((found) => found.command);
}

describe.runIf(cli !== undefined).sequential(`cline processes (${cli?.cli.pkg}@${cli?.version})`, () => {
  test('without the local backend, a first run on a fresh HOME leaves a hub daemon behind (the hazard)', () =>
    inPlace('Say hello.', [{ text: 'Hello.' }], async ({ place, url }) => {
      const { env } = launch(row, place, url);
      // The bare CLI, as a user without the library would start it.
      const child = spawn(cli!.bin, ['--json', 'Say hello.'], {
        cwd: place.workspace,
        env: { ...baseEnv(place), ...env },
        stdio: 'ignore',
      });
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      // Already there when the CLI has exited: the check after a library run (below) needs no wait either.
      const daemon = processesOf(place.home).find(hubDaemon);
      expect(daemon).toBeDefined();
      // It is in a process group of its own: ending the CLI's group would not end it.
      expect(daemon!.pgid).not.toBe(child.pid);
    }));

  test('spawnHarness on a fresh HOME: the run completes and nothing it started is left', () =>
    inPlace('Say hello.', [{ text: 'Hello.' }], async (setting) => {
      const run = startCline(setting, 'Say hello.');
      const events: HarnessEvent[] = [];
      for await (const event of run) events.push(event);
      expect((await run.done).exitCode).toBe(0);
      expect(events.filter((e) => e.type === 'agent').map((e) => e.message)).toEqual(['Hello.']);
      expect(leftOver(setting.place)).toEqual([]);
    }));

  // The command ignores SIGTERM as Cline does (an ignored signal stays ignored across exec).
  const stubborn = "trap '' TERM; sleep 300";
  const waiting: Turn[] = [{ tools: [{ name: 'run_commands', input: { commands: [stubborn] } }] }, { text: 'Done.' }];

  test('stopped during a tool call: SIGTERM is ignored, SIGKILL after the grace ends it and its command', () =>
    inPlace('Wait a while.', waiting, async (setting) => {
      let announced = false;
      const run = startCline(setting, 'Wait a while.', {
        killGraceMs: 3000,
        onRecord(record) {
          const event = (record as { event?: { type?: string; contentType?: string } }).event;
          if (event?.type === 'content_start' && event.contentType === 'tool') announced = true;
        },
      });
      const events: HarnessEvent[] = [];
      const reading = (async () => {
        for await (const event of run) events.push(event);
      })();
      // The handshake: the command is announced, then its process is seen running.
      const running = () => announced && processesOf(setting.place.home).some((p) => p.command.endsWith('sleep 300'));
      expect(await until(running)).toBe(true);
      run.stop();
      await reading;
      expect(await run.done).toMatchObject({ isCanceled: true, signal: 'SIGKILL' });
      // The stopped call was never reported: classified with its outcome unset, as at the end of input.
      expect(events.filter((e) => e.type === 'command').map((e) => [e.command, e.is_success])).toEqual([
        [stubborn, undefined],
      ]);
      expect(leftOver(setting.place)).toEqual([]);
    }));
});
