/**
 * Following a session that a real child process writes (appender.mjs replays real transcripts in chunks that end
 * mid-line): the writer, answering each command with what it did, and the waits the tests hand-shake with.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { HarnessEvent } from '../../../lib/kernel/events.js';

const appender = new URL('./appender.mjs', import.meta.url).pathname;

export interface Writer {
  child: ChildProcessWithoutNullStreams;
  /** Sends a command and resolves with the child's answer. */
  ask(command: string): Promise<string>;
}

/** A child appending each source to its target: `[source, target, source, target, ...]`. */
export function startWriter(...files: string[]): Writer {
  const child = spawn(process.execPath, [appender, ...files], { stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    async ask(command) {
      child.stdin.write(command + '\n');
      const answer = await answers.next();
      if (answer.done === true) throw new Error(`the writer ended before answering ${command}`);
      return answer.value;
    },
  };
}

/** The lines the follower has handled, and a wait until it has handled `count` of them. */
export function lineCounter() {
  let handled = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  return {
    onLine(line: number) {
      handled = line;
      for (const waiter of waiting.filter((w) => w.count <= handled)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    until(count: number): Promise<void> {
      if (count <= handled) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
  };
}

/** The events as they come, and a wait until there are `count` of them. */
export function collect(stream: AsyncIterable<HarnessEvent>) {
  const events: HarnessEvent[] = [];
  let arrived = () => {};
  const done = (async () => {
    for await (const event of stream) {
      events.push(event);
      arrived();
    }
  })();
  return {
    events,
    done,
    async atLeast(count: number): Promise<void> {
      while (events.length < count) await new Promise<void>((resolve) => (arrived = resolve));
    },
  };
}
