/**
 * The `harness-events` command: reads a harness's raw output and writes normalized events as
 * JSONL. Exit codes: 0 when the input was read to its end (warnings and unknown events are
 * normal output), 1 on a schema violation with --strict or a read error mid-stream, 2 on a
 * usage error, 130 after Ctrl-C (what was read is still flushed).
 */
import { open, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PassThrough, type Duplex, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
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
      127 when the command cannot be started); Ctrl-C stops the child and exits 130.

Harnesses: ${[...harnesses.keys()].join(', ')}

Options:
  --harness <name>          which harness produced the input (required)
  --cwd <dir>               the run's working directory: relative paths in events resolve
                            against it (default: what the harness reports, if anything);
                            with run, also the directory the child runs in
  --strict                  a schema violation ends the run with exit code 1, instead of a
                            warning plus an unknown event
  --metrics <file>          write the run metrics (tokens, cost, turns, final output, line
                            accounting) as JSON to <file> when the input ends
  --max-line-bytes <n>      longest input line kept (default 67108864); longer lines become
                            line_too_long warnings
  --max-pending-tools <n>   tool calls that may wait for their result (default 10000)
  --max-span-bytes <n>      longest accumulated text span (default 16777216)
  --stream-lines-above <n>  lines longer than this are parsed as they arrive and keep at most
                            this much of their content, with a truncated warning (default 8388608)
  -h, --help                this text

Exit codes: 0 input read to its end; 1 schema violation (--strict) or read error;
2 usage error (unknown harness, missing file, bad option); 130 interrupted (Ctrl-C), after
writing what was read.`;

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
  const input = await openInput(positionals[0], stdin);
  // Standard input may be a live harness (`claude ... | harness-events normalize`): do not hold text across a pause.
  const normalizer = createNormalizer({ ...options, output: 'jsonl', idleFlushMs: input === stdin ? 200 : undefined });
  return await runPipeline(input, normalizer, stdout, () => writeMetrics(values.metrics, normalizer.metrics));
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
  const run = spawnHarness({ ...options, command, args: commandArgs });
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    run.stop();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  let failure: Error | undefined;
  try {
    await pipeline(run, serialize(), stdout, { end: false });
  } catch (error) {
    run.destroy();
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') failure = error as Error;
  } finally {
    process.removeListener('SIGINT', interrupt);
    process.removeListener('SIGTERM', interrupt);
  }
  const result = await run.done.catch(() => undefined);
  await writeMetrics(values.metrics, run.metrics);
  if (failure) {
    process.stderr.write(`harness-events: ${failure.message}\n`);
    return 1;
  }
  if (result === undefined) return 127;
  return interrupted ? 130 : shellExitCode(result);
}

async function openInput(file: string | undefined, stdin: Readable): Promise<Readable> {
  if (file === undefined || file === '-') return stdin;
  let handle;
  try {
    handle = await open(file, 'r');
    if ((await handle.stat()).isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' });
  } catch (error) {
    await handle?.close();
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return handle.createReadStream();
}

/**
 * input -> normalizer -> stdout, ending cleanly: Ctrl-C stops reading but still flushes what
 * was read (held text, calls waiting for a result); a reader that goes away (EPIPE, as in
 * `| head -1`) ends the run quietly.
 */
async function runPipeline(input: Readable, normalizer: Duplex, stdout: NodeJS.WritableStream, finish: () => Promise<void>): Promise<number> {
  const gate = new PassThrough();
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    input.unpipe(gate);
    input.destroy();
    gate.end();
  };
  input.on('error', (error) => gate.destroy(error));
  input.pipe(gate);
  process.once('SIGINT', interrupt);
  try {
    await pipeline(gate, normalizer, stdout, { end: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED') {
      input.destroy();
      return 0;
    }
    await finish();
    process.stderr.write(`harness-events: ${(error as Error).message}\n`);
    return 1;
  } finally {
    process.removeListener('SIGINT', interrupt);
  }
  await finish();
  return interrupted ? 130 : 0;
}

async function writeMetrics(file: string | undefined, metrics: RunMetrics): Promise<void> {
  if (file !== undefined) await writeFile(file, JSON.stringify(metrics, null, 2) + '\n');
}
