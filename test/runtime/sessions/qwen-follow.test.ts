/**
 * followSession on a Qwen Code transcript a real child appends to in mid-line chunks, its subagent's file appearing
 * on the way; and a session that ends by itself on its quiet period.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { followSession } from '../../../lib/runtime/sessions/follow.js';
import { collect, lineCounter, startWriter, type Writer } from './following.js';
import { signature, transcripts } from './pairs.js';
import { backgroundEvents, chat, subagentFile } from './qwen-capture.js';

describe('followSession on a Qwen transcript a real child appends to', () => {
  const dirs: string[] = [];
  const writers: Writer[] = [];
  afterEach(() => {
    for (const writer of writers.splice(0)) writer.child.kill();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const capture = join(transcripts('qwen', 'subagent-background'), 'home');

  /** A runtime directory of the session's layout, its main file empty and its subagent's not there yet. */
  function runtime(): { main: string; agent: string } {
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-qwen-follow-'));
    dirs.push(dir);
    const main = join(dir, chat('subagent-background'));
    mkdirSync(join(main, '..'), { recursive: true });
    writeFileSync(main, '');
    return { main, agent: join(dir, subagentFile('subagent-background')) };
  }

  test(
    "written in mid-line chunks, the subagent's file appearing on the " + 'way: each event as its line completes',
    async () => {
      const { main, agent } = runtime();
      // Both files in their records' time order; the subagent's file and folder are made by its first line.
      const writer = startWriter(
        join(capture, chat('subagent-background')),
        main,
        join(capture, subagentFile('subagent-background')),
        agent,
      );
      writers.push(writer);
      const lines = lineCounter();
      const controller = new AbortController();
      const follow = followSession({
        harness: 'qwen',
        path: main,
        onLine: lines.onLine,
        signal: controller.signal,
        pollMs: 50,
      });
      const got = collect(follow);
      for (;;) {
        const [, count, more] = (await writer.ask('next')).split(' ');
        await lines.until(Number(count));
        // Before the last line (the main file's final answer) is complete, every other event has come out.
        if (Number(count) === 18) await got.atLeast(backgroundEvents.length - 1);
        if (more === 'all') break;
      }
      // No record ends a Qwen session (its quiet period would): ended here once all 14 + 5 lines are read.
      controller.abort();
      await got.done;
      expect(got.events.map(signature)).toEqual(backgroundEvents);
      expect(follow.metrics.input.lines).toBe(19);
      expect(follow.metrics.tokens).toEqual({ input: 12500, output: 119, cache_read: 11400, reasoning: 0 });
    },
  );

  test('ends by itself on its quiet period once nothing more is written', async () => {
    // A session without subagents: follow reads what is already on disk file by file, not in time order.
    const dir = mkdtempSync(join(tmpdir(), 'harness-events-qwen-follow-'));
    dirs.push(dir);
    const main = join(dir, chat('turn-limit'));
    mkdirSync(join(main, '..'), { recursive: true });
    copyFileSync(join(transcripts('qwen', 'turn-limit'), 'home', chat('turn-limit')), main);
    const got = collect(followSession({ harness: 'qwen', path: main, quietMs: 50 }));
    await got.done;
    expect(got.events.map(signature)).toEqual(['usage', 'read | /home/user/project/notes.txt | true']);
  });
});
