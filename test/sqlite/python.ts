/**
 * A python3 script as the other side of a test (a SQLite writer): started with its arguments, answering one line at a
 * time on stdout, and ended (stdin closed, its exit awaited) by the test's cleanup.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export function python(script: string, args: string[], cleanup: (() => Promise<void> | void)[]) {
  const child = spawn('python3', [script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  cleanup.push(async () => {
    if (child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.stdin.end();
    await exited;
  });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  /** The script's next line; an error when it ended first (`what`: what the line answers). */
  const answer = async (what = 'its next line'): Promise<string> => {
    const next = await answers.next();
    if (next.done === true) throw new Error(`${script} ended before answering ${what}`);
    return next.value;
  };
  return { send: (line: string) => child.stdin.write(line + '\n'), answer };
}
