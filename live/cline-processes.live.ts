/**
 * Cline's process hazards (cline.md "Quirks"), on the real CLI offline: the hub daemon a first
 * run on a fresh HOME leaves behind, and SIGTERM ignored during a turn. Each test reads the
 * process table: the run's process group, and every process whose environment holds the run's HOME.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { CLINE_APPROVE_ALL, spawnHarness, type HarnessEvent } from '../src/index.js';
import { startModelServer } from '../src/testing/index.js';
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

describe.runIf(cli !== undefined).sequential(`cline processes (${cli?.cli.pkg}@${cli?.version})`, () => {
  test('without the local backend, a first run on a fresh HOME leaves a hub daemon behind (the hazard)', async () => {
    const place = createPlace();
    const server = await startModelServer({
      conversations: [{ name: 'main', match: { user: 'Say hello.' }, turns: [{ text: 'Hello.' }] }],
    });
    try {
      const { env } = launch(row, place, server.url);
      // The bare CLI, as a user without the library would start it.
      const child = spawn(cli!.bin, ['--json', 'Say hello.'], {
        cwd: place.workspace,
        env: { ...baseEnv(place), ...env },
        stdio: 'ignore',
      });
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      // Already there when the CLI has exited: the check after a library run (below) needs no wait either.
      expect(processesOf(place.home).some(hubDaemon)).toBe(true);
      // It is in a process group of its own: ending the CLI's group would not end it.
      const daemon = processesOf(place.home).find(hubDaemon)!;
      expect(daemon.pgid).not.toBe(child.pid);
    } finally {
      kill(processesOf(place.home));
      await server.close();
      place.remove();
    }
  });

  test('spawnHarness on a fresh HOME: the run completes and nothing it started is left', async () => {
    const place = createPlace();
    const server = await startModelServer({
      conversations: [{ name: 'main', match: { user: 'Say hello.' }, turns: [{ text: 'Hello.' }] }],
    });
    try {
      const { env, ...options } = launch(row, place, server.url);
      const run = spawnHarness({
        harness: 'cline',
        command: cli!.bin,
        prompt: 'Say hello.',
        ...options,
        cwd: place.workspace,
        env: { ...baseEnv(place), ...env },
      });
      const events: HarnessEvent[] = [];
      for await (const event of run) events.push(event);
      const result = await run.done;
      expect(result.exit_code).toBe(0);
      expect(events.filter((e) => e.type === 'agent').map((e) => e.message)).toEqual(['Hello.']);
      // The daemon would be up by the time the CLI exits (the test above); this run's HOME has no process left.
      const left = processesOf(place.home);
      kill(left);
      expect(left.map((found) => found.command)).toEqual([]);
    } finally {
      kill(processesOf(place.home));
      await server.close();
      place.remove();
    }
  });

  test('stopped during a tool call: SIGTERM is ignored, SIGKILL after the grace ends it and its command', async () => {
    const stubborn = "trap '' TERM; sleep 300";
    const place = createPlace();
    const server = await startModelServer({
      conversations: [
        {
          name: 'main',
          match: { user: 'Wait a while.' },
          // The command ignores SIGTERM as Cline does (an ignored signal stays ignored across exec).
          turns: [{ tools: [{ name: 'run_commands', input: { commands: [stubborn] } }] }, { text: 'Done.' }],
        },
      ],
    });
    try {
      const { env, ...options } = launch(row, place, server.url, [...CLINE_APPROVE_ALL]);
      let sleeping = false;
      const run = spawnHarness({
        harness: 'cline',
        command: cli!.bin,
        prompt: 'Wait a while.',
        ...options,
        cwd: place.workspace,
        env: { ...baseEnv(place), ...env },
        killGraceMs: 3000,
        onRecord(record) {
          // The handshake: the command is announced, then its process is seen running.
          const event = (record as { event?: { type?: string; contentType?: string } }).event;
          if (event?.type === 'content_start' && event.contentType === 'tool') sleeping = true;
        },
      });
      const events: HarnessEvent[] = [];
      const reading = (async () => {
        for await (const event of run) events.push(event);
      })();
      expect(await until(() => sleeping && processesOf(place.home).some((p) => p.command.endsWith('sleep 300')))).toBe(
        true,
      );
      run.stop();
      await reading;
      const result = await run.done;
      expect(result).toMatchObject({ aborted: true, signal: 'SIGKILL' });
      // The stopped call was never reported: classified with its outcome unset, as at the end of input.
      expect(events.filter((e) => e.type === 'command').map((e) => [e.command, e.is_success])).toEqual([
        [stubborn, undefined],
      ]);
      const left = processesOf(place.home);
      kill(left);
      expect(left.map((found) => found.command)).toEqual([]);
    } finally {
      kill(processesOf(place.home));
      await server.close();
      place.remove();
    }
  });
});
