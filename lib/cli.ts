/**
 * The `harness-events` command: reads a harness's raw output and writes normalized events as
 * JSONL. Exit codes: 0 when the input was read to its end (warnings and unknown events are
 * normal output), 1 on a schema violation with --strict or a read error mid-stream, 2 on a
 * usage error, 128 + n after signal n (SIGINT, SIGTERM, SIGHUP, SIGQUIT: what was read is
 * still flushed, the metrics still written).
 */
import { close, createReadStream, fstat, fstatSync, open as openFd, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { Socket } from 'node:net';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { PassThrough, type Duplex, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs, promisify } from 'node:util';
import { harnesses } from '../harnesses/index.js';
import type { RunMetrics } from './events.js';
import { createNormalizer, type NormalizeOptions } from './normalizer.js';
import { shellExitCode, spawnHarness } from './spawn.js';
import { serialize } from '../transforms/serialize.js';

export const usage = `Usage:
  harness-events normalize --harness <name> [options] [FILE]
      Reads a harness's raw JSONL output from FILE (or standard input, also as "-") and
      writes one normalized event per line (JSONL) to standard output.
  harness-events run --harness <name> [options] -- <command> [args...]
      Runs the harness CLI and writes its normalized events as JSONL, live: its stdout
      translated, its stderr lines as warnings, its ending (exit code, signal, a missing
      terminal record) as events. Exits with the child's exit code (128 + n for signal n,
      127 when the command cannot be started). Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) stops
      the child and everything it started (SIGTERM, then SIGKILL after the grace period; a
      second Ctrl-C: SIGKILL at once), writes what it printed, exits 128 + n.

Harnesses: ${[...harnesses.keys()].join(', ')}

Options:
  --harness <name>          which harness produced the input (required)
  --cwd <dir>               the run's working directory: relative paths in events resolve
                            against it (default: what the harness reports, if anything);
                            with run, also the directory the child runs in
  --strict                  a schema violation ends the run with exit code 1, instead of a
                            warning plus an unknown event
  --metrics <file>          write the run metrics (tokens, cost, turns, final output, line
                            accounting) as JSON to <file> when the input ends (opened first:
                            a path that cannot be written is a usage error)
  --kill-grace-ms <n>       with run: how long the child may take to exit after SIGTERM
                            before it gets SIGKILL (default 5000)
  --max-line-bytes <n>      longest input line kept (default 67108864); longer lines become
                            line_too_long warnings
  --max-pending-tools <n>   tool calls that may wait for their result (default 10000)
  --max-span-bytes <n>      longest accumulated text span (default 16777216)
  --stream-lines-above <n>  lines longer than this are parsed as they arrive and keep at most
                            this much of their content, with a truncated warning (default 8388608)
  -h, --help                this text

Exit codes: 0 input read to its end, or its reader went away (| head -1); 1 schema
violation (--strict) or read error; 2 usage error (unknown harness, missing file, bad
option, unwritable --metrics); 128 + n after signal n (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP,
131 SIGQUIT), after writing what was read.`;

export class UsageError extends Error {}

const sizeOptions = {
  'max-line-bytes': 'maxLineBytes',
  'max-pending-tools': 'maxPendingTools',
  'max-span-bytes': 'maxSpanBytes',
  'stream-lines-above': 'streamLinesAbove',
} as const;

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[], stdin: Readable = process.stdin, stdout: NodeJS.WritableStream = process.stdout): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined) throw new UsageError(`a command is required\n${usage}`);
    if (command === '-h' || command === '--help' || command === 'help') {
      stdout.write(usage + '\n');
      return 0;
    }
    if (command === 'normalize') return await normalizeCommand(rest, stdin, stdout);
    if (command === 'run') return await runCommand(rest, stdout);
    throw new UsageError(`unknown command "${command}" (see harness-events --help)`);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`harness-events: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        harness: { type: 'string' },
        cwd: { type: 'string' },
        strict: { type: 'boolean' },
        metrics: { type: 'string' },
        'max-line-bytes': { type: 'string' },
        'max-pending-tools': { type: 'string' },
        'max-span-bytes': { type: 'string' },
        'stream-lines-above': { type: 'string' },
        'kill-grace-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function normalizeCommand(args: string[], stdin: Readable, stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    stdout.write(usage + '\n');
    return 0;
  }
  const options = normalizeOptions(values);
  if (positionals.length > 1) throw new UsageError(`one input file at most, got ${positionals.length}`);
  const file = positionals[0] === '-' ? undefined : positionals[0];
  // Before anything is opened: the metrics must not overwrite the input.
  if (values.metrics !== undefined && sameFile(values.metrics, statOf(file ?? 0))) {
    throw new UsageError(`--metrics ${values.metrics} is the input: it would be overwritten`);
  }
  const input = await openInput(file, stdin);
  let metrics: MetricsFile | undefined;
  try {
    metrics = await openMetrics(values.metrics);
  } catch (error) {
    input.destroy();
    throw error;
  }
  // Standard input may be a live harness (`claude ... | harness-events normalize`): do not hold text across a pause.
  const normalizer = createNormalizer({ ...options, output: 'jsonl', idleFlushMs: input === stdin ? 200 : undefined });
  return await runPipeline(input, normalizer, stdout, metrics);
}

type Values = ReturnType<typeof parse>['values'];

function normalizeOptions(values: Values): NormalizeOptions {
  if (values.harness === undefined) throw new UsageError('--harness is required (see harness-events --help)');
  if (!harnesses.has(values.harness)) throw new UsageError(`unknown harness "${values.harness}" (known: ${[...harnesses.keys()].join(', ')})`);
  const options: NormalizeOptions = { harness: values.harness, cwd: values.cwd === undefined ? undefined : resolve(values.cwd), strict: values.strict };
  for (const [flag, key] of Object.entries(sizeOptions)) {
    const text = values[flag as keyof typeof sizeOptions];
    if (text === undefined) continue;
    if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`--${flag} takes a positive integer, got "${text}"`);
    options[key] = Number(text);
  }
  return options;
}

async function runCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help) {
    stdout.write(usage + '\n');
    return 0;
  }
  const options = normalizeOptions(values);
  const [command, ...commandArgs] = positionals;
  if (command === undefined) throw new UsageError('run needs the command to run, after -- (see harness-events --help)');
  const grace = values['kill-grace-ms'];
  if (grace !== undefined && !/^\d+$/.test(grace)) throw new UsageError(`--kill-grace-ms takes a number of milliseconds, got "${grace}"`);
  if (options.cwd !== undefined && !statOf(options.cwd)?.isDirectory()) throw new UsageError(`--cwd ${values.cwd} is not a directory`);
  // Checked before the child starts: a run may take an hour and cost money.
  const metrics = await openMetrics(values.metrics);
  const run = spawnHarness({ ...options, command, args: commandArgs, killGraceMs: grace === undefined ? undefined : Number(grace) });
  const signals = trapStopSignals(
    () => run.stop(),
    () => run.stop({ force: true }),
  );
  let outputError: Error | undefined;
  try {
    await pipeline(run, serialize(), stdout, { end: false });
  } catch (error) {
    // The reader went away (| head -1), or the run failed: either way the child is stopped, and waited for.
    run.destroy();
    outputError = error as Error;
  }
  const result = await run.done.catch((error: Error) => error);
  await metrics?.write(run.metrics);
  signals.off();
  const signalled = signals.exitCode;
  if (result instanceof Error) return report(result, signalled ?? 127);
  if (result.error) return report(result.error, signalled ?? 1);
  // After a signal the terminal may be gone too (SIGHUP): its write errors are expected.
  if (outputError && signalled === undefined && !readerGone(outputError)) return report(outputError, 1);
  return signalled ?? (outputError ? 0 : shellExitCode(result));
}

function report(error: Error, code: number): number {
  process.stderr.write(`harness-events: ${error.message}\n`);
  return code;
}

/** EPIPE and its kin: whoever read standard output has gone (`| head -1`), which ends a run quietly. */
function readerGone(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/** The signals that end a command early; it exits 128 + the signal's number, as a shell reports a death by it. */
const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;

/**
 * Handles the stop signals until `off()`: the first calls `first`, any later one `again` (a
 * second Ctrl-C). The command decides how it ends, not Node's default (death on the spot):
 * what was read is written, the metrics too, and nothing it started is left behind.
 */
function trapStopSignals(first: () => void, again: () => void = () => {}) {
  let received: NodeJS.Signals | undefined;
  const handler = (signal: NodeJS.Signals) => {
    if (received !== undefined) return again();
    received = signal;
    first();
  };
  for (const signal of stopSignals) process.on(signal, handler);
  return {
    /** 128 + the first signal's number; undefined when none came. */
    get exitCode(): number | undefined {
      return received === undefined ? undefined : 128 + constants.signals[received];
    },
    off(): void {
      for (const signal of stopSignals) process.removeListener(signal, handler);
    },
  };
}

async function openInput(file: string | undefined, stdin: Readable): Promise<Readable> {
  if (file === undefined) return stdin;
  let fd: number | undefined;
  try {
    // Opening a FIFO waits for its writer.
    fd = await promisify(openFd)(file, 'r');
    const stats = await promisify(fstat)(fd);
    if (stats.isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' });
    // A FIFO or a socket is read as a pipe: a file read would wait for an idle writer, even after Ctrl-C.
    if (stats.isFIFO() || stats.isSocket()) return new Socket({ fd, readable: true, writable: false });
    return createReadStream(file, { fd });
  } catch (error) {
    if (fd !== undefined) close(fd);
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** A path's (or an open descriptor's) stats; undefined when there is nothing there. */
function statOf(target: string | number): Stats | undefined {
  try {
    return typeof target === 'number' ? fstatSync(target) : statSync(target);
  } catch {
    return undefined;
  }
}

function sameFile(path: string, other: Stats | undefined): boolean {
  const stats = statOf(path);
  return stats !== undefined && other !== undefined && stats.isFile() && stats.dev === other.dev && stats.ino === other.ino;
}

interface MetricsFile {
  /** Replaces the file's content with the metrics, and closes it. */
  write(metrics: RunMetrics): Promise<void>;
}

/**
 * Opens the --metrics file before any work starts, so a path that cannot be written is a usage
 * error at once, not a stack trace after the run. Opened for appending, so nothing is lost
 * until the metrics are written.
 */
async function openMetrics(file: string | undefined): Promise<MetricsFile | undefined> {
  if (file === undefined) return undefined;
  let handle;
  try {
    handle = await open(file, 'a');
  } catch (error) {
    throw new UsageError(`cannot write the metrics to ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const opened = handle;
  const regular = (await opened.stat()).isFile();
  return {
    async write(metrics) {
      if (regular) await opened.truncate(0);
      await opened.write(JSON.stringify(metrics, null, 2) + '\n');
      await opened.close();
    },
  };
}

/**
 * input -> normalizer -> stdout, ending cleanly: a stop signal (Ctrl-C, SIGTERM, SIGHUP,
 * SIGQUIT) stops reading but still flushes what was read (held text, calls waiting for a
 * result); a reader that goes away (EPIPE, as in `| head -1`) ends the run quietly. The metrics
 * are written whichever way it ends.
 */
async function runPipeline(input: Readable, normalizer: Duplex & { metrics: RunMetrics }, stdout: NodeJS.WritableStream, metrics: MetricsFile | undefined): Promise<number> {
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
    await pipeline(gate, normalizer, stdout, { end: false });
  } catch (error) {
    input.destroy();
    if (!readerGone(error as Error)) failure = error as Error;
  }
  await metrics?.write(normalizer.metrics);
  signals.off();
  if (failure) return report(failure, signals.exitCode ?? 1);
  return signals.exitCode ?? 0;
}
