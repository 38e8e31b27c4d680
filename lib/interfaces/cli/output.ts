/**
 * How a command's events reach standard output: input -> stages -> stdout, a stop signal or a reader that goes away
 * ending it cleanly, and the pretty printer loaded when asked for.
 */
import { resolve } from 'node:path';
import { PassThrough, type Duplex, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { WriteStream } from 'node:tty';
import type { RunMetrics } from '../../kernel/events.js';
import { trapStopSignals } from './signals.js';
import { oneLine } from '../view/invisible.js';

/**
 * input -> stages -> stdout, ending cleanly: a stop signal (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT)
 * stops reading but still flushes what was read (held text, calls waiting for a result); a
 * reader that goes away (EPIPE, as in `| head -1`) ends the run quietly. `finish` (the
 * metrics) runs whichever way it ends.
 */
export async function runPipeline(
  input: Readable,
  stages: Duplex[],
  stdout: NodeJS.WritableStream,
  finish: () => Promise<void>,
): Promise<number> {
  const gate = new PassThrough();
  const signals = trapStopSignals(() => {
    input.unpipe(gate);
    input.destroy();
    gate.end();
  });
  input.on('error', (error) => gate.destroy(error));
  input.pipe(gate);
  let failure: Error | undefined;
  try {
    await pipeline([gate, ...stages, stdout], { end: false });
  } catch (error) {
    input.destroy();
    if (!readerGone(error as Error)) failure = error as Error;
  }
  await finish();
  signals.off();
  if (failure) return reportFailure(failure, signals.exitCode ?? 1);
  return signals.exitCode ?? 0;
}

/** Says a failure on stderr, in one line; resolves to the exit code given. */
export function reportFailure(error: Error, code: number): number {
  say(error.message);
  return code;
}

/**
 * A line on stderr, as the CLI says everything there: `harness-events: ` and the message, inert and on one line (an
 * error may quote a file: a session's path, a store's table definition).
 */
export function say(message: string): void {
  process.stderr.write(`harness-events: ${oneLine(message)}\n`);
}

/** EPIPE and its kin: whoever read standard output has gone (`| head -1`), which ends a run quietly. */
export function readerGone(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/**
 * The pretty printer for standard output: in color on a terminal unless NO_COLOR is set (or
 * with --color), and, on a terminal, wrapped to its width under a live status line. Loaded
 * only when asked for, so the JSONL path starts as fast as before.
 */
export async function loadPretty(
  values: { color?: boolean; cwd?: string },
  stdout: NodeJS.WritableStream,
): Promise<(metrics?: RunMetrics) => Duplex> {
  const { prettyPrint } = await import('../view/pretty.js');
  const terminal = (stdout as WriteStream).isTTY === true ? (stdout as WriteStream) : undefined;
  const color = values.color === true || (terminal !== undefined && !process.env.NO_COLOR);
  return (metrics) => prettyPrint({ color, terminal, cwd: resolve(values.cwd ?? '.'), metrics });
}
