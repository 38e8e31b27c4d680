/**
 * The `harness-events` command: reads a harness's raw output and writes normalized events as
 * JSONL. Exit codes: 0 when the input was read to its end (warnings and unknown events are
 * normal output), 1 on a schema violation with --strict or a read error mid-stream, 2 on a
 * usage error, 128 + n after signal n (SIGINT, SIGTERM, SIGHUP, SIGQUIT: what was read is
 * still flushed, the metrics still written); `run` exits as its result says (`runExitCode`).
 */
import {
  closeSync,
  createReadStream,
  fstat as fstatCallback,
  fstatSync,
  open as openCallback,
  statSync,
  type Stats,
} from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { constants } from 'node:os';
import { promisify } from 'node:util';
import { resolve } from 'node:path';
import { PassThrough, Writable, type Duplex, type Readable } from 'node:stream';
import type { WriteStream } from 'node:tty';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { harnesses, isHarnessName } from '../../runtime/registry.js';
import { acpAgents } from '../../harnesses/acp/agents.js';
import type { HarnessEvent, RunMetrics } from '../../kernel/events.js';
import { createNormalizer, type NormalizeOptions } from '../../runtime/normalizer.js';
import {
  MAX_TIMER_MS,
  shellExitCode,
  spawnHarness,
  type HarnessRun,
  type SpawnHarnessOptions,
} from '../../runtime/run/spawn.js';
import { HarnessRunError, type RunFailure, type RunResult } from '../../runtime/run/errors.js';
import { isPermissions, permissionList } from '../../kernel/permissions.js';
import { serialize } from '../../transforms/serialize.js';
import { readEvents } from '../../runtime/read-events.js';
import { packageVersion } from '../../kernel/version.js';
import { fromFlags, publishFlags, publishing, replayCommand, storedEvents, writeStored } from './jetstream.js';
import { UsageError } from './usage-error.js';
import { followCommand, followUsage, sessionFlags, sessionInput, sessionsCommand, sessionsUsage } from './sessions.js';

export const usage = `Usage:
  harness-events normalize --harness <name> [options] [FILE]
      Reads a harness's raw JSONL output from FILE (or standard input, also as "-") and
      writes one normalized event per line (JSONL) to standard output.
  harness-events run --harness <name> --prompt <text> [--model <id>] [options] [-- <args>...]
  harness-events run --harness <name> [options] -- <command> [args...]
      Runs the harness CLI and writes its normalized events as JSONL, live. With --prompt,
      the harness's own command line (non-interactive, approving what --permissions says:
      by default nothing; the README lists them), <args> going before the prompt; else the
      command given. Its stdout translated, its stderr lines as warnings, its ending (exit
      code, signal, a missing terminal record, a timeout) as events. Exits with the child's
      exit code (128 + n for signal n, 127 when the command cannot be started, 124 after
      --timeout). Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) stops
      the child and everything it started (SIGTERM, then SIGKILL after the grace period; a
      second Ctrl-C: SIGKILL at once), writes what it printed, exits 128 + n.
  harness-events run --harness acp --prompt <text> [--agent <name>] [options] [-- <command> [args...]]
      Runs an agent that speaks the Agent Client Protocol: starts it (a known agent's
      command line, or the command after --), sends the prompt, answers its permission
      requests (rejected unless --permissions bypass), and ends when it answers the prompt
      (exit 0 for end_turn, 1 for any other stop reason); Ctrl-C cancels the turn (exit 130; a
      second one: SIGKILL at once).
  harness-events view [--cwd <dir>] [--color] [FILE]
      Shows normalized events (the JSONL of normalize or run, from FILE or standard input)
      for a person: one line or a short block per event; on a terminal in color, wrapped
      to its width, with a live status line (elapsed, tokens, cost, files, failures).
  harness-events report [options] [FILE] [-o <file>]
      Writes the report of one run: a self-contained HTML page (summary, timeline, files,
      commands, failures and warnings, every event), or a Markdown summary (--format md).
      FILE holds normalized events, or with --harness the harness's raw output.
  harness-events normalize|view|report --harness <name> --session <path> [options]
      Reads an agent's own session file (its path from sessions) instead of FILE: the
      same events as its stdout, but for the differences docs/harnesses/<name>.md lists.
${sessionsUsage}
${followUsage}
  harness-events replay --from nats://HOST:PORT [--run ID] [options]
      Writes the events stored in NATS JetStream (by --publish) as JSONL, in order: one
      run's with --run, else every run's; --harness <name> keeps one harness's runs,
      --since <time> starts at a time, --follow goes on with new events until Ctrl-C,
      --metrics <file> writes the run's metrics; --stream as below. view --from shows
      them (with --run, --since, --follow, --stream) as view shows a file.

Harnesses: ${[...harnesses.keys()].join(', ')}, or auto (told from the stream's first records)

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
  --kill-grace-ms <n>       run: how long the child may take to exit after SIGTERM before
                            it gets SIGKILL (default 5000)
  --timeout <ms>            run: stop the child after this long, as Ctrl-C does (exit 124)
  --max-line-bytes <n>      longest input line kept (default 67108864); longer lines become
                            line_too_long warnings
  --max-pending-tools <n>   tool calls that may wait for their result (default 10000)
  --max-pending-bytes <n>   bytes those calls may hold (default 67108864); past either, the
                            oldest is emitted without its result
  --max-span-bytes <n>      longest accumulated text span (default 16777216)
  --stream-lines-above <n>  lines longer than this are parsed as they arrive and keep at most
                            this much of their content, with a truncated warning (default 8388608)
  --prompt <text>           run: the task; the harness's command line is built around it
                            (acp: the prompt sent to the agent)
  --model <id>              run, with --prompt: the model to ask for (acp: selected with
                            session/set_model before the prompt)
  --agent <name>            acp: a known agent, started in ACP mode without flags (${[...acpAgents.keys()].join(', ')})
  --permissions <mode>      run, with --prompt: what the agent may do without asking: default
                            (nothing), read-only or plan (where the CLI has such a mode), bypass
                            (every tool call approved; acp: its permission requests allowed)
  --format <format>         normalize, run: jsonl (default) or pretty (what view shows);
                            report: html (default) or md
  --color                   pretty output in color even when standard output is not a
                            terminal (default: color on a terminal, unless NO_COLOR is set)
  -o, --output <file>       report: the file to write (default: standard output)
                            view, report: --cwd is the directory paths are shown relative
                            to (default: the current directory); report: --metrics <file>
                            reads the run metrics that normalize or run wrote
  --publish nats://HOST:PORT  also publish each event to NATS JetStream, and the run
                            metrics as the run's final message (see README "Many machines")
  --stream <name>           the JetStream stream (default HARNESS_EVENTS, created if missing)
  --run <id>                the run's id in the subjects (default: a new UUID, printed)
  --quiet                   with --publish: print no events
  -h, --help                this text
  -v, --version             the version of harness-events

Exit codes: 0 input read to its end, or its reader went away (| head -1); 1 schema
violation (--strict) or read error; 2 usage error (unknown harness, missing file, bad
option, unwritable --metrics); 128 + n after signal n (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP,
131 SIGQUIT), after writing what was read; run: the child's exit code, 127 when it cannot
be started, 124 after --timeout (docs/run-contract.md).`;

const openFile = promisify(openCallback);
const fstat = promisify(fstatCallback);

const sizeOptions = {
  'max-line-bytes': 'maxLineBytes',
  'max-pending-tools': 'maxPendingTools',
  'max-pending-bytes': 'maxPendingBytes',
  'max-span-bytes': 'maxSpanBytes',
  'stream-lines-above': 'streamLinesAbove',
} as const;

/** Runs the CLI; resolves to the process exit code. */
export async function main(
  argv: string[],
  stdin: Readable = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined) throw new UsageError(`a command is required\n${usage}`);
    if (command === '-h' || command === '--help' || command === 'help') {
      stdout.write(usage + '\n');
      return 0;
    }
    if (command === '-v' || command === '--version') {
      stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    if (command === 'normalize') return await normalizeCommand(rest, stdin, stdout);
    if (command === 'run') return await runCommand(rest, stdout);
    if (command === 'replay') return await replayCommand(rest, stdout, { usage, writeMetrics });
    if (command === 'view') return await viewCommand(rest, stdin, stdout);
    if (command === 'report') return await reportCommand(rest, stdin, stdout);
    if (command === 'sessions') return await sessionsCommand(rest, stdout);
    if (command === 'follow')
      return await followCommand(rest, stdout, async (metrics) => (await loadPretty({}, stdout))(metrics));
    throw new UsageError(`unknown command "${command}" (see harness-events --help)`);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`harness-events: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/** The options of a run started from a prompt (`run --prompt`; acp also `--agent`). */
const launchFlags = ['prompt', 'model', 'agent', 'permissions'];

/** The options each command takes; any other is a usage error. */
const commandOptions = {
  normalize: [
    'harness',
    'cwd',
    'strict',
    'metrics',
    'format',
    'color',
    ...Object.keys(sizeOptions),
    ...Object.keys(publishFlags),
    'session',
  ],
  run: [
    'harness',
    'cwd',
    'strict',
    'metrics',
    'format',
    'color',
    'kill-grace-ms',
    'timeout',
    ...Object.keys(sizeOptions),
    ...Object.keys(publishFlags),
    ...launchFlags,
  ],
  view: ['cwd', 'color', 'stream', 'run', ...Object.keys(fromFlags), 'harness', 'session'],
  report: ['harness', 'cwd', 'strict', 'metrics', 'format', 'output', ...Object.keys(sizeOptions), 'session'],
};

function parse(args: string[], command: keyof typeof commandOptions) {
  const parsed = parseOptions(args);
  for (const name of Object.keys(parsed.values)) {
    if (name !== 'help' && !commandOptions[command].includes(name))
      throw new UsageError(`${command} does not take --${name} (see harness-events --help)`);
  }
  return parsed;
}

function parseOptions(args: string[]) {
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
        'max-pending-bytes': { type: 'string' },
        'max-span-bytes': { type: 'string' },
        'stream-lines-above': { type: 'string' },
        'kill-grace-ms': { type: 'string' },
        timeout: { type: 'string' },
        prompt: { type: 'string' },
        agent: { type: 'string' },
        permissions: { type: 'string' },
        model: { type: 'string' },
        format: { type: 'string' },
        color: { type: 'boolean' },
        output: { type: 'string', short: 'o' },
        ...publishFlags,
        ...fromFlags,
        ...sessionFlags,
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function normalizeCommand(args: string[], stdin: Readable, stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args, 'normalize');
  if (values.help) {
    stdout.write(usage + '\n');
    return 0;
  }
  const options = normalizeOptions(values);
  const pretty = formatOf(values, ['jsonl', 'pretty']) === 'pretty' ? await loadPretty(values, stdout) : undefined;
  const file = oneFile(positionals);
  // Before anything is opened: the metrics must not overwrite the input.
  if (values.metrics !== undefined && sameFile(values.metrics, statOf(file === undefined || file === '-' ? 0 : file))) {
    throw new UsageError(`--metrics ${values.metrics} is the input: it would be overwritten`);
  }
  const session = await sessionInput(values, file);
  const input = session?.input ?? (await openInput(file, stdin));
  let metrics: MetricsFile | undefined;
  let output;
  try {
    metrics = await openMetrics(values.metrics);
    output = publishing(values, values.harness!, () => normalizer.metrics);
  } catch (error) {
    input.destroy();
    await metrics?.discard();
    throw error;
  }
  const objects = pretty !== undefined || values.publish !== undefined;
  // Standard input may be a live harness (`claude ... | harness-events normalize`): do not hold text across a pause.
  const normalizer = createNormalizer({
    ...options,
    harness: session?.reader ?? options.harness,
    output: objects ? 'objects' : 'jsonl',
    idleFlushMs: input === stdin ? 200 : undefined,
  });
  const print = pretty ? [pretty(normalizer.metrics)] : objects ? [serialize()] : [];
  let metricsWritten = true;
  const code = await runPipeline(input, [normalizer, ...output(print)], stdout, async () => {
    metricsWritten = (await metrics?.write(normalizer.metrics)) ?? true;
  });
  return metricsWritten || code !== 0 ? code : 1;
}

type Values = ReturnType<typeof parse>['values'];

function oneFile(positionals: string[]): string | undefined {
  if (positionals.length > 1) throw new UsageError(`one input file at most, got ${positionals.length}`);
  return positionals[0];
}

function formatOf(values: Values, formats: string[]): string {
  const format = values.format ?? formats[0]!;
  if (!formats.includes(format)) throw new UsageError(`--format takes ${formats.join(' or ')}, got "${format}"`);
  return format;
}

/**
 * The pretty printer for standard output: in color on a terminal unless NO_COLOR is set (or
 * with --color), and, on a terminal, wrapped to its width under a live status line. Loaded
 * only when asked for, so the JSONL path starts as fast as before.
 */
async function loadPretty(values: Values, stdout: NodeJS.WritableStream): Promise<(metrics?: RunMetrics) => Duplex> {
  const { prettyPrint } = await import('../view/pretty.js');
  const terminal = (stdout as WriteStream).isTTY === true ? (stdout as WriteStream) : undefined;
  const color = values.color === true || (terminal !== undefined && !process.env.NO_COLOR);
  return (metrics) => prettyPrint({ color, terminal, cwd: resolve(values.cwd ?? '.'), metrics });
}

function normalizeOptions(values: Values): NormalizeOptions {
  if (values.harness === undefined) throw new UsageError('--harness is required (see harness-events --help)');
  const harness = values.harness;
  if (!isHarnessName(harness) && harness !== 'auto')
    throw new UsageError(`unknown harness "${harness}" (known: ${[...harnesses.keys()].join(', ')}, or auto)`);
  const options: NormalizeOptions = {
    harness,
    cwd: values.cwd === undefined ? undefined : resolve(values.cwd),
    strict: values.strict,
  };
  for (const [flag, key] of Object.entries(sizeOptions)) {
    const text = values[flag as keyof typeof sizeOptions];
    if (text === undefined) continue;
    // Beyond 2^53 the digits no longer name one number: refused here, not a RangeError from the library.
    if (!/^[1-9]\d*$/.test(text) || !Number.isSafeInteger(Number(text)))
      throw new UsageError(`--${flag} takes a positive integer up to ${Number.MAX_SAFE_INTEGER}, got "${text}"`);
    options[key] = Number(text);
  }
  return options;
}

async function runCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args, 'run');
  if (values.help) {
    stdout.write(usage + '\n');
    return 0;
  }
  const options = normalizeOptions(values);
  const pretty = formatOf(values, ['jsonl', 'pretty']) === 'pretty' ? await loadPretty(values, stdout) : undefined;
  const launch = launchOptions(values, positionals);
  const grace = values['kill-grace-ms'];
  // A timer holds at most 2^31 - 1 ms: past it Node fires at once, so SIGKILL would follow SIGTERM by 1 ms.
  if (grace !== undefined && (!/^\d+$/.test(grace) || Number(grace) > MAX_TIMER_MS))
    throw new UsageError(`--kill-grace-ms takes a number of milliseconds up to ${MAX_TIMER_MS}, got "${grace}"`);
  const timeout = values.timeout;
  if (timeout !== undefined && (!/^[1-9]\d*$/.test(timeout) || Number(timeout) > MAX_TIMER_MS))
    throw new UsageError(`--timeout takes a positive number of milliseconds up to ${MAX_TIMER_MS}, got "${timeout}"`);
  if (options.cwd !== undefined && !statOf(options.cwd)?.isDirectory())
    throw new UsageError(`--cwd ${values.cwd} is not a directory`);
  // Checked before the child starts: a run may take an hour and cost money.
  const metrics = await openMetrics(values.metrics);
  let output;
  let run: HarnessRun;
  try {
    output = publishing(values, values.harness!, () => run.metrics);
    run = startHarness({
      ...options,
      ...launch,
      killGraceMs: grace === undefined ? undefined : Number(grace),
      timeoutMs: timeout === undefined ? undefined : Number(timeout),
      // The command reads every event, and reports a failure by its exit code.
      reject: false,
    } as SpawnHarnessOptions);
  } catch (error) {
    await metrics?.discard();
    throw error;
  }
  const signals = trapStopSignals(
    () => run.stop(),
    () => run.stop({ force: true }),
  );
  let outputError: Error | undefined;
  try {
    await pipeline([run as Readable, ...output([pretty ? pretty(run.metrics) : serialize()]), stdout], { end: false });
  } catch (error) {
    // The reader went away (| head -1), or the output failed: either way the child is stopped, and waited for.
    run.destroy();
    outputError = error as Error;
  }
  const result = await run.done;
  // A metrics file that cannot be written is said on stderr; the exit code stays the child's.
  await metrics?.write(run.metrics);
  signals.off();
  // After a signal the terminal may be gone too (SIGHUP): its write errors are expected.
  const failedOutput =
    outputError && signals.exitCode === undefined && !readerGone(outputError) ? outputError : undefined;
  const code = runExitCode(result, signals.exitCode, outputError !== undefined);
  const failure = failedOutput ?? (result instanceof HarnessRunError && said.has(result.reason) ? result : undefined);
  return failure ? reportFailure(failure, failedOutput ? 1 : code) : code;
}

/** The failures `run` also reports on stderr (the others are the child's own, which its events already say). */
const said = new Set<RunFailure>(['spawn_failed', 'stage_failed', 'timeout']);

/**
 * The one place `run`'s exit code is decided, from the run's result: a stop signal the command got is 128 + its
 * number; a child that could not be started 127; a failed stage 1; a timeout 124 (as timeout(1)); a reader that went
 * away 0; otherwise the child's exit code (ACP: its conversation's), 128 + n after signal n.
 */
export function runExitCode(result: RunResult, signalled: number | undefined, readerWent = false): number {
  if (signalled !== undefined) return signalled;
  if (!(result instanceof HarnessRunError)) return 0;
  const byReason: Partial<Record<RunFailure, number>> = { spawn_failed: 127, stage_failed: 1, timeout: 124 };
  if (readerWent && result.reason === 'aborted') return 0;
  return byReason[result.reason] ?? shellExitCode(result);
}

function reportFailure(error: Error, code: number): number {
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

/**
 * What `run` starts: with `--prompt`, the harness's own command line, the words after `--`
 * going before the prompt (acp: the agent's command line, or `--agent`'s); without, the
 * command after `--`.
 */
function launchOptions(values: Values, positionals: string[]): Partial<SpawnHarnessOptions> {
  const [command, ...args] = positionals;
  const permissions = values.permissions;
  if (permissions !== undefined && !isPermissions(permissions))
    throw new UsageError(`--permissions takes one of ${permissionList}, got "${permissions}"`);
  if (permissions !== undefined && values.prompt === undefined)
    throw new UsageError('--permissions goes with --prompt (with a command after --, its arguments are yours)');
  if (values.harness === 'acp') {
    if (command === undefined && values.agent === undefined)
      throw new UsageError(
        "run --harness acp needs --agent or the agent's command after -- (see harness-events --help)",
      );
    return { command, args, prompt: values.prompt, model: values.model, agent: values.agent, permissions };
  }
  if (values.agent !== undefined) throw new UsageError('--agent is for --harness acp');
  if (values.prompt !== undefined)
    return {
      prompt: values.prompt,
      model: values.model,
      permissions,
      extraArgs: positionals.length > 0 ? positionals : undefined,
    };
  if (values.model !== undefined)
    throw new UsageError('--model goes with --prompt (with a command after --, put it there)');
  if (command === undefined)
    throw new UsageError('run needs --prompt, or the command to run after -- (see harness-events --help)');
  return { command, args };
}

/** spawnHarness, with options the harness cannot run with (acp without --prompt, an unknown agent) as usage errors. */
function startHarness(options: SpawnHarnessOptions): HarnessRun {
  try {
    return spawnHarness(options);
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}

async function openInput(file: string | undefined, stdin: Readable): Promise<Readable> {
  if (file === undefined || file === '-') return stdin;
  let fd: number | undefined;
  try {
    // Opening a FIFO waits for its writer.
    fd = await openFile(file, 'r');
    const stats = await fstat(fd);
    if (stats.isDirectory()) throw Object.assign(new Error(), { code: 'EISDIR' });
    // A FIFO or a socket is read as a pipe: a file read would wait for an idle writer, even after Ctrl-C.
    if (stats.isFIFO() || stats.isSocket()) return new Socket({ fd, readable: true, writable: false });
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  // A plain descriptor: fs.ReadStream's callback reads are cheaper than a FileHandle's promises.
  return createReadStream('', { fd, highWaterMark: 1 << 18 });
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
  return (
    stats !== undefined && other !== undefined && stats.isFile() && stats.dev === other.dev && stats.ino === other.ino
  );
}

interface OutputFile {
  /** Replaces the file's content with `text`, and closes it; false (said in one line on stderr) when it could not. */
  write(text: string | Iterable<string>): Promise<boolean>;
  /** A usage error came after all: closes the file, and removes it if opening it created it. */
  discard(): Promise<void>;
}

/**
 * Opens a file the command writes at its end (--metrics, report -o) before any work starts, so a path that cannot be
 * written is a usage error at once, not a stack trace after the run. Opened for appending, so nothing is lost until it
 * is written; a write that fails then (ENOSPC: /dev/full) is one line on stderr.
 */
async function openOutput(file: string, what: string): Promise<OutputFile> {
  const created = statOf(file) === undefined;
  let handle;
  try {
    handle = await open(file, 'a');
  } catch (error) {
    throw new UsageError(`cannot write ${what} to ${file}: ${errorCode(error)}`);
  }
  const opened = handle;
  const regular = (await opened.stat()).isFile();
  return {
    async write(text) {
      try {
        if (regular) await opened.truncate(0);
        for (const chunk of batches(typeof text === 'string' ? [text] : text)) await opened.write(chunk);
        await opened.close();
        return true;
      } catch (error) {
        await opened.close().catch(() => {});
        process.stderr.write(`harness-events: cannot write ${what} to ${file}: ${errorCode(error)}\n`);
        return false;
      }
    },
    async discard() {
      await opened.close();
      if (created) await rm(file, { force: true });
    },
  };
}

/** Pieces joined up to about 1 MiB: one write each, and never one string of the whole. */
function* batches(chunks: Iterable<string>): Generator<string> {
  let batch = '';
  for (const chunk of chunks) {
    batch += chunk;
    if (batch.length >= 1 << 20) {
      yield batch;
      batch = '';
    }
  }
  if (batch !== '') yield batch;
}

/** Writes the pieces to a stream at its pace. */
async function writeChunks(stream: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  for (const chunk of batches(chunks)) {
    if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

interface MetricsFile extends Pick<OutputFile, 'discard'> {
  write(metrics: RunMetrics): Promise<boolean>;
}

async function openMetrics(file: string | undefined): Promise<MetricsFile | undefined> {
  if (file === undefined) return undefined;
  const output = await openOutput(file, 'the metrics');
  return { write: (metrics) => output.write(JSON.stringify(metrics, null, 2) + '\n'), discard: output.discard };
}

/**
 * input -> stages -> stdout, ending cleanly: a stop signal (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT)
 * stops reading but still flushes what was read (held text, calls waiting for a result); a
 * reader that goes away (EPIPE, as in `| head -1`) ends the run quietly. `finish` (the
 * metrics) runs whichever way it ends.
 */
async function runPipeline(
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

/**
 * Writes the metrics to `file` at once (replay's, which come at the end); `run` and `normalize` open theirs before they
 * start.
 */
export async function writeMetrics(file: string | undefined, metrics: RunMetrics): Promise<boolean> {
  return (await (await openMetrics(file))?.write(metrics)) ?? true;
}

async function viewCommand(args: string[], stdin: Readable, stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args, 'view');
  if (values.help) {
    stdout.write(usage + '\n');
    return 0;
  }
  const pretty = await loadPretty(values, stdout);
  const stored = storedEvents(values, oneFile(positionals));
  if (stored) return await writeStored(stored, [pretty()], stdout);
  const session = await sessionInput(values, oneFile(positionals));
  if (session) {
    const normalizer = createNormalizer({ harness: session.reader });
    return await runPipeline(session.input, [normalizer, pretty(normalizer.metrics)], stdout, async () => {});
  }
  if (values.harness !== undefined) throw new UsageError('view takes --harness only with --session');
  const input = await openInput(oneFile(positionals), stdin);
  return await runPipeline(input, [readEvents(), pretty()], stdout, async () => {});
}

/** Reads the whole run (normalized events, or raw output with --harness), then writes its report. */
async function reportCommand(args: string[], stdin: Readable, stdout: NodeJS.WritableStream): Promise<number> {
  const { values, positionals } = parse(args, 'report');
  if (values.help) {
    stdout.write(usage + '\n');
    return 0;
  }
  const format = formatOf(values, ['html', 'md']);
  // Its modules, not harness-events/report's entry point, which first checks that the peers this bundle carries are
  // installed.
  const [{ buildReport, parseMetrics }, { reportHtmlChunks }, { reportMarkdown }] = await Promise.all([
    import('../report/model.js'),
    import('../report/html.js'),
    import('../report/markdown.js'),
  ]);
  if (values.harness !== undefined && values.metrics !== undefined)
    throw new UsageError(
      '--metrics reads the metrics of normalized events; with --harness they come from the input itself',
    );
  const session = await sessionInput(values, oneFile(positionals));
  const normalizer =
    values.harness === undefined
      ? undefined
      : createNormalizer({ ...normalizeOptions(values), ...(session && { harness: session.reader }) });
  const metrics = normalizer?.metrics ?? (await readMetrics(values.metrics, parseMetrics));
  const file = oneFile(positionals);
  if (
    values.output !== undefined &&
    session === undefined &&
    sameFile(values.output, statOf(file === undefined || file === '-' ? 0 : file))
  )
    throw new UsageError(`-o ${values.output} is the input: it would be overwritten`);
  // Before the input is read: a report that cannot be written is said at once.
  const output = values.output === undefined ? undefined : await openOutput(values.output, 'the report');
  let input;
  try {
    input = session?.input ?? (await openInput(file, stdin));
  } catch (error) {
    await output?.discard();
    throw error;
  }
  const events: HarnessEvent[] = [];
  const collect = new Writable({
    objectMode: true,
    write(event: HarnessEvent, _encoding, done) {
      events.push(event);
      done();
    },
  });
  const code = await runPipeline(input, [normalizer ?? readEvents()], collect, async () => {});
  if (code === 1) {
    await output?.discard();
    return code;
  }
  const model = buildReport(events, { metrics, cwd: resolve(values.cwd ?? '.') });
  const text = format === 'md' ? [reportMarkdown(model)] : reportHtmlChunks(model);
  if (output === undefined) await writeChunks(stdout, text);
  else if (!(await output.write(text))) return 1;
  return code;
}

async function readMetrics(
  file: string | undefined,
  parseMetrics: (text: string) => RunMetrics | string,
): Promise<RunMetrics | undefined> {
  if (file === undefined) return undefined;
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const metrics = parseMetrics(text);
  if (typeof metrics === 'string') throw new UsageError(`${file} is not run metrics: ${metrics}`);
  return metrics;
}
