/**
 * docs/harnesses/codex.md "Runs: stdout and the rollout": stdout's command items joined to the rollout's by their
 * command text (lib/harnesses/codex/command-join.ts), whichever of the two is read first; each command one event,
 * with the rollout's directory, or without one when the rollout passed it, ended, or was not found.
 */
import { describe, expect, test } from 'vitest';
import { harness } from '../../../lib/harnesses/codex/index.js';
import { createNormalizer, type NormalizeOptions } from '../../../lib/runtime/normalizer.js';
import type { HarnessEvent } from '../../../lib/kernel/events.js';
import { bodies, jsonl } from '../../helpers.js';

const thread = { type: 'thread.started', thread_id: 't-1' };
const stdoutItem = (n: number, cmd: string) => ({
  type: 'item.completed',
  item: {
    id: `item_${n}`,
    type: 'command_execution',
    command: `/bin/bash -lc '${cmd}'`,
    exit_code: 0,
    status: 'completed',
  },
});
const rolloutItem = (n: number, cmd: string, dir: string) => ({
  type: 'event_msg',
  payload: {
    type: 'item_completed',
    item: {
      type: 'CommandExecution',
      id: `call_${n}`,
      command: ['/bin/bash', '-lc', cmd],
      cwd: `file://${dir}`,
      exit_code: 0,
      status: 'completed',
    },
  },
});
const ran = (cmd: string, dir?: string) => ({
  type: 'command',
  command: cmd,
  ...(dir && { working_directory: dir }),
  exit_code: 0,
  is_success: true,
});

/** A run's two readers, fed by hand in a chosen order; `events()`: what both gave, in the order they gave it. */
function joined(options: Omit<NormalizeOptions, 'harness'> = {}) {
  const join = harness.companion.join(harness);
  const given: HarnessEvent[] = [];
  const stdout = createNormalizer({ cwd: '/p', ...options, harness: join.stdout, output: 'objects' });
  const file = createNormalizer({ cwd: '/p', ...options, harness: join.file, output: 'objects' });
  for (const side of [stdout, file]) side.on('data', (event: HarnessEvent) => given.push(event));
  // As a run does: what the rollout settled of stdout's held output, stdout's reader sends.
  join.ready?.(() => stdout.flush());
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  return {
    join,
    stdout,
    async write(side: 'stdout' | 'file', ...records: unknown[]) {
      (side === 'stdout' ? stdout : file).write(jsonl(...records));
      await settled();
    },
    async end(side: 'stdout' | 'file') {
      (side === 'stdout' ? stdout : file).end();
      await settled();
    },
    events: () => bodies(given).filter((event) => event.type === 'command'),
    all: () => bodies(given),
  };
}

describe('Codex: stdout commands joined to the rollout', () => {
  test('stdout first: held until the rollout names its directory, then one event', async () => {
    const run = joined();
    await run.write('stdout', thread, stdoutItem(0, 'make b'));
    expect(run.events()).toEqual([]);
    await run.write('file', rolloutItem(0, 'make b', '/p/sub'));
    expect(run.events()).toEqual([ran('make b', '/p/sub')]);
    await run.end('file');
    await run.end('stdout');
    expect(run.events()).toEqual([ran('make b', '/p/sub')]);
  });

  test('the rollout first: stdout gives it at once, with its directory', async () => {
    const run = joined();
    await run.write('file', rolloutItem(0, 'make b', '/p/sub'), rolloutItem(1, 'make b', '/p/other'));
    await run.write('stdout', thread, stdoutItem(0, 'make b'));
    expect(run.events()).toEqual([ran('make b', '/p/sub')]);
    await run.write('stdout', stdoutItem(1, 'make b'));
    expect(run.events()).toEqual([ran('make b', '/p/sub'), ran('make b', '/p/other')]);
  });

  test('a held command the rollout passed goes out before the next, without a directory', async () => {
    const run = joined();
    await run.write('stdout', thread, stdoutItem(0, 'make a'), stdoutItem(1, 'make b'));
    await run.write('file', rolloutItem(1, 'make b', '/p/sub'));
    expect(run.events()).toEqual([ran('make a'), ran('make b', '/p/sub')]);
  });

  test('the rollout ends first: what stdout held goes out at its end, each once', async () => {
    const run = joined();
    await run.write('stdout', thread, stdoutItem(0, 'make a'));
    await run.end('file');
    expect(run.events()).toEqual([ran('make a')]);
    // After the rollout's end nothing is held.
    await run.write('stdout', stdoutItem(1, 'make b'));
    await run.end('stdout');
    expect(run.events()).toEqual([ran('make a'), ran('make b')]);
  });

  test('the rollout not found yet (unheld): stdout gives what it held at its next pause, then holds none', async () => {
    const run = joined();
    await run.write('stdout', thread, stdoutItem(0, 'make a'));
    run.join.unheld();
    run.stdout.flush();
    expect(run.events()).toEqual([ran('make a')]);
    await run.write('stdout', stdoutItem(1, 'make b'));
    expect(run.events()).toEqual([ran('make a'), ran('make b')]);
    await run.end('file');
    expect(run.events()).toEqual([ran('make a'), ran('make b')]);
  });

  test("stdout's events after a held command wait behind it: the run keeps stdout's order", async () => {
    const run = joined();
    const message = { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Built.' } };
    await run.write('stdout', thread, stdoutItem(0, 'make b'), message, stdoutItem(2, 'make c'));
    expect(run.all()).toEqual([]);
    await run.write('file', rolloutItem(0, 'make b', '/p/sub'));
    // The message goes out after its command; the next command is held in turn.
    expect(run.all()).toEqual([ran('make b', '/p/sub'), { type: 'agent', message: 'Built.' }]);
    await run.write('file', rolloutItem(2, 'make c', '/p'));
    expect(run.all()).toEqual([ran('make b', '/p/sub'), { type: 'agent', message: 'Built.' }, ran('make c', '/p')]);
  });

  test('past maxPendingTools what waits behind the oldest held goes out with it, in order', async () => {
    const run = joined({ maxPendingTools: 2 });
    const message = { type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Built.' } };
    await run.write('stdout', thread, stdoutItem(0, 'make a'), message, stdoutItem(2, 'make b'));
    expect(run.all()).toEqual([ran('make a'), { type: 'agent', message: 'Built.' }]);
    await run.end('stdout');
    expect(run.all()).toEqual([ran('make a'), { type: 'agent', message: 'Built.' }, ran('make b')]);
  });

  test('past maxPendingTools the oldest held goes out from stdout, without a directory', async () => {
    const run = joined({ maxPendingTools: 1 });
    await run.write('stdout', thread, stdoutItem(0, 'make a'), stdoutItem(1, 'make b'));
    expect(run.events()).toEqual([ran('make a')]);
    await run.write('file', rolloutItem(1, 'make b', '/p/sub'));
    expect(run.events()).toEqual([ran('make a'), ran('make b', '/p/sub')]);
  });
});
