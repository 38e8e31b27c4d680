/**
 * The seam between the generic stages and one harness. Adding a harness is a folder under
 * harnesses/ (its correlator and its tool table) plus one line in lib/runtime/registry.ts.
 */
import type { AnswerTable, OnPermission } from './approvals.js';
import type { ApprovalCounts } from './asker.js';
import type { FailureRows } from './failures.js';
import type { Writable } from 'node:stream';
import type { EventBody, RunMetrics } from './events.js';
import type { JsonObject } from './json.js';
import type { Permissions } from './permissions.js';
import type { Refusal } from './permission-denied.js';
import type { RecordRows } from './record-table.js';
import type { ToolCall } from './tool-call.js';
import type { EventIds, HarnessTime, PermissionRecord, RunTrace } from './trace.js';
import type { TextSpan, TextSpanOptions } from './text-span.js';

/**
 * What starting a harness takes, as far as the harness's own `launch` and `client` are
 * concerned (the runtime's `spawnHarness` options extend it).
 */
export interface LaunchOptions {
  /**
   * The program to run, e.g. `claude`; with a `prompt`, it replaces the harness's own program (a path, a wrapper); acp
   * may take an `agent` preset instead.
   */
  command?: string;
  /**
   * The program's arguments, exactly; not with a `prompt`, which builds them (acp: they follow the `agent` preset's).
   */
  args?: readonly string[];
  /**
   * What the agent is asked to do: the harness's own command line is built around it (lib/runtime/command-lines.ts);
   * acp sends it as the session's prompt.
   */
  prompt?: string;
  /**
   * With a `prompt`: the model to ask for (the CLI's `--model`; acp selects it with `session/set_model`, e.g. Droid's
   * `custom:<Name>-<index>`).
   */
  model?: string;
  /**
   * With a `prompt`: further arguments for the built command line, before the prompt (acp: after the `agent` preset's).
   */
  extraArgs?: readonly string[];
  /** The child's working directory; also the run's `cwd`, against which relative paths in events resolve. */
  cwd?: string;
  /**
   * How long the child's process group may take to exit after SIGTERM before it gets SIGKILL. Default 5000 ms (acp's
   * own ending: 2000).
   */
  killGraceMs?: number;
  /**
   * What the agent may do without asking (lib/kernel/permissions.ts). Default `'default'`: nothing is approved; the
   * harness maps the value onto its CLI's flags (acp: onto its answers to permission requests).
   */
  permissions?: Permissions;
  /**
   * With `permissions: 'ask'` (required then): decides each tool call the agent asks about (docs/library.md
   * "Approvals"). Its answer is mapped onto the agent's own; one the agent cannot express denies the call.
   */
  onPermission?: OnPermission;
  /**
   * With `permissions: 'ask'`: a request unanswered after this many milliseconds is denied with a message (the turn
   * goes on) and the callback's signal aborts. Default: no limit.
   */
  permissionTimeoutMs?: number;
  /**
   * Variables added to the child's environment. A harness's `launch` adds what its permissions need over them: a
   * caller's variable never undoes a permission setting.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Set by a harness's `launch` for a CLI that reads its prompt on standard input (no option parser sees it there):
   * written to the child's stdin, which is then closed.
   */
  input?: string;
}

/** What a harness correlator can see of, and do to, the run it is translating. */
export interface RunContext {
  /** The working directory paths resolve against: the `cwd` option, else what the harness reported. */
  readonly cwd: string | undefined;
  /** A working directory the harness reported; the `cwd` option wins, and the first report sticks. */
  reportCwd(dir: unknown): void;
  /** The run's home directory (the `home` option, else the `env` option's `HOME`); unset: this process's. */
  readonly home?: string;
  /** The harness process's environment (the `env` option), for rules that depend on it; unset: not known. */
  readonly env?: Readonly<NodeJS.ProcessEnv>;
  /** A session id the harness reported; the first non-empty string is the stream's. */
  reportSession(id: unknown): void;
  /**
   * Sends an event, stamped with the observation time and the session id; text held in the run's spans goes out first.
   * `ids`: what its trace record says it came from (a `usage` event's `model_call_id`), when the trace is on.
   */
  emit(event: EventBody, ids?: EventIds): void;
  /** Sends a tool call to the classifier (stamped like an event); text held in the run's spans goes out first. */
  tool(call: ToolCallFields): void;
  /** A span of agent text or reasoning held until its message ends, emitted before anything else the run sends. */
  textSpan(options?: TextSpanOptions): TextSpan;
  /** The run metrics, filled by the correlator as the harness reports them. */
  readonly metrics: RunMetrics;
  /** The run's bounds on held state (the normalizer's options, or their defaults). */
  readonly limits: Limits;
  /** The trace stream (docs/contract.md "Trace stream"), when it is on; undefined otherwise. */
  readonly trace?: RunTrace;
}

/** The bounds a correlator keeps its held state within (docs/contract.md "State is bounded"). */
export interface Limits {
  /** Tool calls that may wait for their result at once; past it the oldest is emitted unresolved. */
  readonly maxPendingTools: number;
  /** The bytes those calls (and the run's other held entries) may hold, by their strings; past it the oldest go. */
  readonly maxPendingBytes: number;
  /** The longest accumulated text span, in UTF-8 bytes; past it the span is emitted in parts. */
  readonly maxSpanBytes: number;
}

/** What a correlator reports of a tool call; the stage adds the cwd, timestamp and session id. */
export interface ToolCallFields {
  /** The harness's id for the call, when it has one. */
  id?: string;
  /** The tool's name as the harness gives it (the tool table's key, unless the harness's `toolKey` maps it). */
  name: string;
  /** The call's input, as the harness gives it (the row reads its fields). */
  input: unknown;
  /** Whether the call succeeded, once its result is known. */
  is_success?: boolean;
  /** A shell call's exit code, when the harness reports one. */
  exit_code?: number;
  /** The directory a shell call ran in, when the harness reports it. */
  working_directory?: string;
  /**
   * The directory the call's relative paths resolve against, where the harness moved it from the run's (Claude Code's
   * shell directory); null: not known, so they are reported as given. Unset: the run's.
   */
  directory?: string | null;
  /** Result metadata a row may need (Claude's `tool_use_result`, OpenCode's `state.metadata`). */
  result?: unknown;
  /** What the tool returned to the model (Claude's `tool_result` content), for a row that reads it. */
  output?: unknown;
  /** The call's record(s) as the harness wrote them: an `unknown` event carries it when no row fits. */
  raw: unknown;
  /** For the trace: the record's own time for the call's start, when the harness announced it only now. */
  started_at?: HarnessTime;
  /** For the trace: the record's own time for the call's end. */
  ended_at?: HarnessTime;
  /** For the trace: false when the harness sends more than tool calls this way (Codex's messages): no call records. */
  call?: false;
}

/** A harness's translation of one run: fed each parsed line, it emits events through its `RunContext`. */
export interface Correlator {
  /** One parsed JSON line (any JSON value). Returns the name of the rule that handled it. */
  record(value: unknown): string;
  /** End of input: flush held text, settle calls still waiting for a result. */
  end(): void;
  /**
   * Emit held text now: a line the harness never sees (not JSON, too long) is about to become an event, and events keep
   * input order.
   */
  flush?(): void;
}

/**
 * A tool table row: the events a finished call becomes; [] when the spec says it produces none,
 * null when its input does not fit the row (it becomes `unknown`). `doc` is the row's
 * "normalized event" cell, for the generated reference (docs/harnesses/).
 */
export type ToolRule = ((call: ToolCall) => EventBody[] | null) & {
  /** The row's "normalized event" cell, for the generated reference. */
  readonly doc: string;
};
/** A harness's tool table: a rule per tool name (docs/harnesses/<name>.md's "Tool calls"). */
export type ToolTable = ReadonlyMap<string, ToolRule>;

/**
 * A harness: how one agent CLI's output becomes events. The built-in ones are in `harnesses`; one of your own is
 * built from `harness-events/harness` (docs/custom-harness.md) and passed as the `harness` option.
 */
export interface Harness {
  /** Its name: the `harness` option's value and `metrics.harness`. */
  readonly name: string;
  /** Creates the correlator for one run. */
  correlator(run: RunContext): Correlator;
  /** The "Raw event stream" table the correlator dispatches on (its rows' rule names are what `record` returns). */
  readonly records: RecordRows;
  /**
   * Further tables its rows dispatch to, by name (acp's `session/update` kinds); their rule names are `record`'s too.
   */
  readonly tables?: Readonly<Record<string, RecordRows>>;
  /** The tool table: which event each tool call becomes. */
  readonly tools: ToolTable;
  /** The tool-table key for a harness tool name, when it is not the name itself. */
  toolKey?(name: string): string;
  /**
   * The record that ends a run (Claude Code's `result`), for harnesses that have one: a run without it is incomplete.
   */
  readonly terminal?: string;
  /**
   * Exit codes with which the harness ends a run on purpose without its terminal record, and
   * what each means (Qwen Code's fatal stops: 53 is its turn limit): such a run is not
   * incomplete, and the exit code's error names the reason.
   */
  readonly exitCodes?: ReadonlyMap<number, string>;
  /**
   * Which of its errors is which failure class (`metrics.failure`): rows tried in order, the first match wins; a
   * run that failed with no error a row matches is `other`.
   */
  readonly failures?: FailureRows;
  /**
   * The options of a run with what the harness fills in (its command line for a `prompt`; acp: an `agent` preset's);
   * throws on options it cannot run with.
   */
  launch?<Options extends LaunchOptions>(options: Options): Options & LaunchOptions;
  /**
   * How `harness: 'auto'` tells this harness's stream; none: it is never detected (it is named, or told apart by
   * another's).
   */
  readonly signature?: Signature;
  /**
   * A stderr line (under spawnHarness) that says a permission refused a tool call, for a harness that says so only
   * there (`codex exec`): a `permission_denied` warning follows the line's `stderr` warning.
   */
  stderrRefusal?(line: string): Refusal | undefined;
  /**
   * For a harness the library talks to (acp; Claude Code and Qwen Code with `permissions: 'ask'`): its side of the
   * conversation, started with the child.
   */
  client?(options: LaunchOptions, context: ClientContext): HarnessClient;
  /** Whether a run with these options has a `client` (the child's stdin is then the client's); absent: every run. */
  converses?(options: LaunchOptions): boolean;
  /**
   * What each answer to a permission request becomes for this agent (docs/library.md "Approvals"), for a harness
   * that asks (`permissions: 'ask'`).
   */
  readonly answers?: AnswerTable;
  /**
   * For a CLI whose stdout reports the session's running total (Claude Code's `result.modelUsage`, Goose's
   * `complete`): its flags that may go on with an earlier session. A run spawnHarness builds the command line of
   * without them starts a new session, and that total is the run's own (`run_ended.tokens`).
   */
  readonly continues?: readonly string[];
  /** A file the CLI writes beside its stdout with what stdout lacks (Codex's rollout): spawnHarness joins it. */
  readonly companion?: Companion;
}

/** A file a run writes beside its stdout, followed while it runs; its reader's events join stdout's. */
export interface Companion {
  /** What the file is, for the warning when it cannot be found (`rollout`). */
  readonly what: string;
  /**
   * One run's readers, which share what each has read: called once per run (of `harness`, whose companion this is),
   * before its stdout is read.
   */
  join(harness: Harness): CompanionJoin;
  /** The id a stdout record names the file by (Codex's `thread.started`), if it names it. */
  id(record: unknown): string | undefined;
  /**
   * The ids of related files a stdout record names (a Codex sub-agent's thread, whose rollout holds its own calls):
   * each is followed too, read whole by {@link CompanionJoin.related}.
   */
  related?(record: unknown): readonly string[];
  /** The file of that id under the child's environment, once it exists. */
  find(id: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined>;
}

/** A run's two readers of {@link Companion.join}. */
export interface CompanionJoin {
  /** Reads the run's stdout in the harness's place; it may hold an event until the file has said more of it. */
  readonly stdout: Harness;
  /** Reads the file: it emits only what stdout lacks, and what stdout held, once the file has said more of it. */
  readonly file: Harness;
  /** The file is not found yet: stdout holds nothing more, and gives what it held at its next pause. */
  unheld(): void;
  /** Reads a related file whole (nothing of it is on stdout), when the companion names related files. */
  readonly related?: Harness;
}

/** How `harness: 'auto'` knows a harness's stream: the shape of the records that open it. */
export interface Signature {
  /** What it checks, for the docs and the error when nothing matches. */
  readonly shape: string;
  /** Whether a record of the stream's opening is this harness's. */
  matches(record: JsonObject): boolean;
  /**
   * For a stream two harnesses write alike (OpenCode and its fork Kilo): which one a record
   * shows, undefined while none has; records are read until one does, else it is this harness.
   */
  tellApart?(record: JsonObject): string | undefined;
}

/**
 * A harness told from its stream (`harness: 'auto'`): the correlate stage hands it the first
 * records until it knows which harness wrote them, then it becomes that harness (the runtime's
 * AutoHarness, which knows the registry; the stages never do).
 */
export interface DetectingHarness extends Harness {
  /** The harness the stream turned out to be, once known. */
  readonly detected: Harness | undefined;
  /** Reads one of the stream's first records; the harness's name once they have shown it. */
  read(value: unknown): string | undefined;
  /** No more records will be read: the harness they point to, if any. */
  settle(): string | undefined;
  /** What was seen that no signature placed (record types, kinds of value), for the `unknown_harness` error. */
  readonly seen: readonly string[];
  /** Becomes the named harness; undefined: none, every record is kept as `unknown`. */
  become(name: string | undefined): void;
}

export function isDetecting(harness: Harness): harness is DetectingHarness {
  return typeof (harness as Partial<DetectingHarness>).become === 'function';
}

/** What a harness's client may do to the child it talks to. */
export interface ClientContext {
  /** The child's standard input. */
  readonly stdin: Writable;
  /** Signals the child's process group: the library ending the run itself, so never reported as `killed`. */
  kill(signal: NodeJS.Signals): void;
  /** Sends an event of the library's own, stamped like the others. */
  emit(event: EventBody, ids?: EventIds): void;
  /** The run's metrics (a refusal the client answered is counted in them). */
  readonly metrics: RunMetrics;
  /** The trace's permission records, when the run has the trace on. */
  readonly trace?: (record: PermissionRecord) => void;
}

/** The library's side of one run of a harness it talks to. */
export interface HarnessClient {
  /** One parsed line of the child's stdout, after the events it gave. */
  record(value: unknown): void;
  /**
   * The caller aborts (its signal, `run.stop()`, destroying the stream): end the run the harness's way; `'terminate'`:
   * spawnHarness ends the child as it does without a client (SIGTERM to its group, then SIGKILL).
   */
  abort(): void | 'terminate';
  /** The child has exited: nothing is left to wait for. */
  exited(): void;
  /**
   * The run's exit code when the conversation decided it (acp.md, "How the run ends"): then the child's own status,
   * after the client ended it, is not the run's. Undefined: the child's own status is.
   */
  exitCode?(): number | undefined;
  /** The child's stdout has ended: no answer can come any more (the child may still run). */
  outputEnded?(): void;
  /** A line of the child's stdout was longer than maxLineBytes and skipped: it may have been an answer. */
  lineLost?(): void;
  /** With `permissions: 'ask'`: the calls asked about so far, and how they were decided (the result's `approvals`). */
  approvals?(): ApprovalCounts;
}
