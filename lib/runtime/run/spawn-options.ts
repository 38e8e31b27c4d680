/**
 * What `spawnHarness` takes: a union on `harness`, so that ACP's options compile only with
 * `harness: 'acp'`; `undefined` is the default for every option; and from plain JavaScript an
 * option of the wrong kind is a TypeError naming it and what it expects.
 */
import type { AcpOptions } from '../../harnesses/acp/client.js';
import type { Harness, LaunchOptions } from '../../kernel/harness.js';
import { spawnUnsupported } from './platform.js';
import { isObject } from '../../kernel/json.js';
import { isPermissions, permissionList } from '../../kernel/permissions.js';
import { hasFlag } from '../../kernel/command-line.js';
import type { NormalizeOptions } from '../normalizer.js';
import type { Budget } from './budget.js';
import { harnessFrom, type HarnessName } from '../registry.js';

/** The options every run takes, whatever its harness. */
export interface RunOptions extends Omit<NormalizeOptions, 'output' | 'harness' | 'trace'>, LaunchOptions {
  /** Added to this process's environment (`extendEnv: false`: the child's whole environment). */
  env?: NodeJS.ProcessEnv;
  /** Default true: `env` extends `process.env`; false: `env` replaces it. */
  extendEnv?: boolean;
  /**
   * Aborting it ends the child: SIGTERM, then SIGKILL after `killGraceMs` (acp: the turn is cancelled first), and the
   * run rejects with `isCanceled`. Already aborted: nothing is started, and the run rejects all the same.
   */
  signal?: AbortSignal;
  /** Ends the run as an abort does after this many milliseconds; it rejects with `timedOut`. Default: no limit. */
  timeoutMs?: number;
  /**
   * Ends the run as its timeout does once its usage events pass this (`reason: 'budget'`); `done` tells `spent`.
   * A budget in USD needs `model` and `budget.prices`. Default: no limit.
   */
  budget?: Budget;
  /** Default true: a failed run rejects `done`; false: `done` resolves with the `HarnessRunError`. */
  reject?: boolean;
  /**
   * While nothing reads the events, they are kept for the result (`result.events`), up to this many bytes (roughly
   * their JSON's: their strings' lengths); past it the child is stopped and the run fails (`max_buffer`).
   * Default 64 MiB.
   */
  maxResultBytes?: number;
  /** @deprecated The old name of `maxResultBytes` (one word from `maxBufferedBytes`); removed in the next release. */
  maxBufferBytes?: number;
  /** What the child reads on stdin; by default it gets none (/dev/null). */
  stdin?: 'ignore' | 'pipe';
  /** Events buffered for a reader before the child's output is paused. Default 256. */
  highWaterMark?: number;
  /**
   * Bytes of events (roughly, their strings' lengths) buffered for a reader before the child's output is paused,
   * whatever their count: `highWaterMark` in bytes. Default 64 MiB: a reader that stalls holds at most this (plus
   * the event that crossed it). The run goes on; it only waits.
   */
  highWaterMarkBytes?: number;
  /** @deprecated The old name of `highWaterMarkBytes` (one word from `maxBufferBytes`); removed in the next release. */
  maxBufferedBytes?: number;
}

/** An ACP agent's run: the library is its client. */
export interface AcpRunOptions extends RunOptions, AcpOptions {
  /** `acp`: the agent named by `agent`, or by `command` and `args`, is run as an ACP agent. */
  harness: 'acp';
}

/** Any other harness's run: ACP's options do not apply (and do not compile). */
export interface CliRunOptions extends RunOptions {
  /**
   * The harness to run: a built-in's name (its command line is built from `prompt`), `auto` (told from its output;
   * give `command`), or a `Harness` of your own.
   */
  harness: Exclude<HarnessName, 'acp'> | 'auto' | Harness;
  /** ACP only (`harness: 'acp'`). */
  agent?: never;
  /** ACP only (`harness: 'acp'`). */
  exitGraceMs?: never;
  /** ACP only (`harness: 'acp'`). */
  cancelGraceMs?: never;
}

/**
 * What {@link spawnHarness} takes: the harness, the prompt or command line, and the run's bounds; ACP's options
 * compile only with `harness: 'acp'`. docs/library.md lists every option.
 *
 * @example
 * ```ts
 * const options: SpawnHarnessOptions = {
 *   harness: 'codex',
 *   prompt: 'fix the tests',
 *   cwd: '/repo',
 *   timeoutMs: 600_000,
 *   signal: AbortSignal.timeout(900_000),
 * };
 * ```
 */
export type SpawnHarnessOptions = AcpRunOptions | CliRunOptions;

/** How long a child may take to exit after SIGTERM before it gets SIGKILL (`killGraceMs`). */
export const DEFAULT_KILL_GRACE_MS = 5000;
/** The default `maxResultBytes`. */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024;
/** @deprecated The old name of `DEFAULT_MAX_RESULT_BYTES`; removed in the next release. */
export const DEFAULT_MAX_BUFFER_BYTES = DEFAULT_MAX_RESULT_BYTES;
/** The default `highWaterMarkBytes`. */
const DEFAULT_HIGH_WATER_MARK_BYTES = 64 * 1024 * 1024;

/** The deprecated names of options, each with the one it became (for one release). */
const renamed = { maxBufferBytes: 'maxResultBytes', maxBufferedBytes: 'highWaterMarkBytes' } as const;

const isString = (value: unknown) => typeof value === 'string';
const isStrings = (value: unknown) => Array.isArray(value) && value.every(isString);
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isFunction = (value: unknown) => typeof value === 'function';
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1;

/** Each option spawnHarness reads itself, with what it must be (the normalizer checks its own limits). */
const expected: Readonly<Record<string, readonly [string, (value: unknown) => boolean]>> = {
  command: ['a string', isString],
  args: ['an array of strings', isStrings],
  prompt: ['a string', isString],
  model: ['a string', isString],
  extraArgs: ['an array of strings', isStrings],
  cwd: ['a string', isString],
  env: ['an object of environment variables', (value) => isObject(value)],
  extendEnv: ['a boolean', isBoolean],
  signal: ['an AbortSignal', (value) => value instanceof AbortSignal],
  timeoutMs: ['a positive integer (milliseconds)', isCount],
  budget: ['an object', (value) => isObject(value)],
  reject: ['a boolean', isBoolean],
  maxResultBytes: ['a positive integer (bytes)', isCount],
  maxBufferBytes: ['a positive integer (bytes)', isCount],
  stdin: ['"ignore" or "pipe"', (value) => value === 'ignore' || value === 'pipe'],
  highWaterMark: ['a positive integer (events)', isCount],
  highWaterMarkBytes: ['a positive integer (bytes)', isCount],
  maxBufferedBytes: ['a positive integer (bytes)', isCount],
  // Its range is spawnHarness's to check (a RangeError): a timer's longest delay.
  killGraceMs: ['a number (milliseconds)', (value) => typeof value === 'number'],
  permissions: [`one of ${permissionList}`, isPermissions],
  onPermission: ['a function', isFunction],
  permissionTimeoutMs: ['a positive integer (milliseconds)', isCount],
  strict: ['a boolean', isBoolean],
  onLine: ['a function', isFunction],
  onRecord: ['a function', isFunction],
};

/** Throws a TypeError for options that are not an object, or an option of the wrong kind; undefined is the default. */
function checkRunOptions(given: unknown): asserts given is SpawnHarnessOptions {
  if (!isObject(given)) throw new TypeError('spawnHarness: the options must be an object');
  if (given.harness === undefined)
    throw new TypeError("spawnHarness: the harness option is required (a harness name, 'auto' or a Harness)");
  for (const [name, [expects, ok]] of Object.entries(expected)) {
    const value = given[name];
    if (value !== undefined && !ok(value))
      throw new TypeError(`spawnHarness: ${name} must be ${expects}, got ${describe(value)}`);
  }
  for (const [old, name] of Object.entries(renamed))
    if (given[old] !== undefined && given[name] !== undefined)
      throw new TypeError(`spawnHarness: ${old} is the deprecated name of ${name}: give ${name} alone`);
}

const warned = new Set<string>();

/**
 * The run's two byte bounds, from their names or their deprecated ones (a DeprecationWarning once per process), with
 * the name the caller gave the result's bound (its `max_buffer` error names it).
 */
export function byteBounds(options: RunOptions): { maxResultBytes: number; named: string; highWaterMarkBytes: number } {
  for (const old of Object.keys(renamed) as (keyof typeof renamed)[]) {
    if (options[old] === undefined || warned.has(old)) continue;
    warned.add(old);
    process.emitWarning(`spawnHarness: ${old} is deprecated: use ${renamed[old]}`, 'DeprecationWarning');
  }
  return {
    maxResultBytes: options.maxResultBytes ?? options.maxBufferBytes ?? DEFAULT_MAX_RESULT_BYTES,
    named: options.maxBufferBytes === undefined ? 'maxResultBytes' : 'maxBufferBytes',
    highWaterMarkBytes: options.highWaterMarkBytes ?? options.maxBufferedBytes ?? DEFAULT_HIGH_WATER_MARK_BYTES,
  };
}

/**
 * The ACP preset through which each harness without a channel for approvals in its native mode can ask (docs/library.md
 * "Approvals"); undefined: none.
 */
export const askThrough: Readonly<Record<string, string | undefined>> = {
  codex: 'codex',
  gemini: 'gemini',
  opencode: 'opencode',
  kilo: 'kilo',
  goose: 'goose',
  copilot: 'copilot',
  cline: undefined,
  pi: undefined,
};

/** `permissions: 'ask'` needs its callback and a harness that can ask; the callback's options need `'ask'`. */
function checkAsk(harness: Harness, given: SpawnHarnessOptions): void {
  const ask = given.permissions === 'ask';
  if (!ask) {
    const stray = (['onPermission', 'permissionTimeoutMs'] as const).find((name) => given[name] !== undefined);
    if (stray !== undefined) throw new TypeError(`spawnHarness: ${stray} goes with permissions: 'ask'`);
    return;
  }
  if (given.onPermission === undefined)
    throw new TypeError("spawnHarness: permissions 'ask' needs onPermission (the callback that decides each call)");
  if (harness.client !== undefined) return;
  const preset = askThrough[harness.name];
  throw new Error(
    `spawnHarness: ${harness.name} has no channel for approvals in its own mode, so permissions 'ask' cannot ` +
      (preset === undefined
        ? 'apply'
        : `apply; its ACP mode has one: { harness: 'acp', agent: '${preset}', permissions: 'ask' }`),
  );
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

/** The child's environment: this process's, unless `extendEnv: false`, with `env` over it. */
export function childEnv(options: Pick<RunOptions, 'env' | 'extendEnv'>): NodeJS.ProcessEnv {
  return options.extendEnv === false ? { ...options.env } : { ...process.env, ...options.env };
}

/** The harness and the options a run starts with (its command line built), or a TypeError for options that clash. */
export function launch(given: SpawnHarnessOptions): {
  harness: Harness;
  options: SpawnHarnessOptions;
  command: string;
  /** The harness's client, for a run that has one (it talks to the child over its stdin: ACP, an `ask` run). */
  startClient: Harness['client'];
  /**
   * The run starts a new session: the library built its command line, without a flag that goes on with one, for a
   * harness whose stdout reports the session's total (docs/usage.md "From stdout").
   */
  startsSession: boolean;
} {
  const unsupported = spawnUnsupported(process.platform);
  if (unsupported !== undefined) throw new Error(unsupported);
  checkRunOptions(given);
  const harness = harnessFrom(given.harness);
  const acpOnly = (['agent', 'exitGraceMs', 'cancelGraceMs'] as const).find((name) => given[name] !== undefined);
  if (harness.name !== 'acp' && acpOnly !== undefined)
    throw new TypeError(`spawnHarness: ${acpOnly} is an option of harness 'acp', not of ${harness.name}`);
  if (!harness.launch && given.permissions !== undefined)
    throw new TypeError(`spawnHarness: ${harness.name} has no command line of its own: permissions do not apply`);
  checkAsk(harness, given);
  const options = harness.launch?.(given) ?? given;
  if (options.command === undefined)
    throw new TypeError(
      harness.launch
        ? `spawnHarness: ${harness.name} needs a prompt (its command line is built around it) or a command`
        : `spawnHarness: ${harness.name} needs a command (it has no command line of its own to build from a prompt)`,
    );
  const command = options.command;
  const startClient = harness.converses?.(options) === false ? undefined : harness.client?.bind(harness);
  const { continues } = harness;
  const startsSession =
    given.prompt !== undefined && continues !== undefined && !hasFlag(options.args ?? [], continues);
  return { harness, options, command, startClient, startsSession };
}
