/**
 * The trace stream's records as data (docs/contract.md "Trace stream"): the one source of their TypeScript types
 * (lib/kernel/trace.ts derives them) and of schemas/trace.schema.json (`npm run schemas`). The trace is opt-in and
 * sits beside the contract: each `event` record carries a contract event unchanged, and the other records say when a
 * call, an agent, a model call and the run started and ended.
 */
import { tokens } from './contract.js';

/** The trace stream's version: `run_started.v`. A record changes shape only with a new version. */
export const TRACE_VERSION = 1;

const string = { type: 'string', minLength: 1 } as const;
const boolean = { type: 'boolean' } as const;
const usd = { type: 'number', minimum: 0 } as const;
/** Date#toISOString(): UTC, milliseconds (the events' `timestamp` format). */
const time = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' } as const;
/** Where a time came from: the harness's record (`harness`) or the library's clock when it saw it (`observed`). */
const source = { enum: ['harness', 'observed'] } as const;
const ended = { enum: ['completed', 'failed', 'unresolved'] } as const;
const scope = { enum: ['once', 'session', 'always'] } as const;

/** A time and where it came from: every lifecycle record has both. */
const when = {
  /** When it happened: the harness's own time where its record has one, else when the library saw it. */
  at: time,
  /** `harness`: `at` is the harness's record's time; `observed`: the library's clock when it read the record. */
  at_source: source,
} as const;

/** The agent a record belongs to: absent for the run's own (root) agent. */
const agent = {
  /** The subagent's id, as its orchestration events' `subagent_id`; absent: the root agent. */
  agent_id: string,
} as const;

/**
 * One row per record kind: its fields beside `kind`, split into required and optional. The `event` row's `event` is
 * a contract event, exactly as the plain stream gives it (its schema: event.schema.json).
 */
export const traceKinds = {
  run_started: {
    required: {
      /** The trace stream's version (1). */
      v: { const: TRACE_VERSION },
      /** The harness whose run this is (`claude-code`, `codex`, ...). */
      harness: string,
      ...when,
    },
    optional: {},
  },
  event: {
    required: {
      /** The event's 1-based position in the run's plain event stream: line `seq` of `--output jsonl`. */
      seq: { type: 'integer', minimum: 1 },
      /** The contract event, unchanged. */
      event: { $ref: 'event.schema.json' },
    },
    optional: {
      /** The tool call the event came from. */
      call_id: string,
      ...agent,
      /** The model call the event came from (a `usage` event's response), where the harness names it. */
      model_call_id: string,
    },
  },
  call_started: {
    required: {
      /** The harness's id for the call (the library's own `he:<n>` when the harness gives none). */
      call_id: string,
      /** The tool's name, as the harness gave it. */
      tool: string,
      ...when,
    },
    optional: {
      ...agent,
      /**
       * The harness announced the call only when it had finished (OpenCode, Kilo): this record comes with its
       * `call_ended`, and `at` is the call's real start where the harness reports it.
       */
      late: boolean,
    },
  },
  call_ended: {
    required: {
      call_id: string,
      /** `completed`, `failed`, or `unresolved` (its result never came: end of input, or the pending bound). */
      status: ended,
      ...when,
    },
    optional: { ...agent },
  },
  agent_started: {
    required: {
      /** The subagent's id: its orchestration events' `subagent_id`. */
      agent_id: string,
      ...when,
    },
    optional: {
      /** The agent that started it; absent: the root agent. */
      parent_id: string,
      /** The tool call that started it, where the harness names one. */
      call_id: string,
      /** The harness's other id for it (Claude Code's `agent_id`, Copilot's `agentId`). */
      native_id: string,
      /** Its name or type (`general-purpose`, `explore`). */
      name: string,
      /** It runs in the background: the call that started it ended when it was launched. */
      background: boolean,
    },
  },
  agent_ended: {
    required: {
      agent_id: string,
      /** `completed`, `failed`, or `unresolved` (the run ended before the harness said). */
      status: ended,
      ...when,
    },
    optional: {},
  },
  model_call: {
    required: {
      /** When the model's answer ended. */
      ...when,
    },
    optional: {
      /** The harness's id for the request or response (Claude Code's `message.id`, Codex's `response_id`). */
      model_call_id: string,
      ...agent,
      /** The model, as the harness names it. */
      model: string,
      /** The call's tokens, in the `usage` events' classes. */
      tokens,
      /** Its cost in USD, where the harness reports one. */
      cost: usd,
      /** When the request started, where the harness marks it (absent: only its end is known). */
      started_at: time,
      /** Where `started_at` came from. */
      started_at_source: source,
    },
  },
  permission_requested: {
    required: {
      /** The tool call asked about: its `call_started` and events' `call_id`. */
      call_id: string,
      /** The tool's name, as the harness gave it. */
      tool: string,
      /** What the call is, in the event vocabulary (`command`, `write`, ...; `unknown` when no row fits). */
      tool_kind: string,
      /** The scopes an allow could take. */
      scopes: { type: 'array', items: scope },
      ...when,
    },
    optional: {
      ...agent,
      /** The harness's id for the request (Claude's `request_id`). */
      request_id: string,
    },
  },
  permission_resolved: {
    required: {
      /** The tool call decided. */
      call_id: string,
      /** `allowed`, `denied`, or `withdrawn` (the run or the harness called the request off before an answer). */
      outcome: { enum: ['allowed', 'denied', 'withdrawn'] },
      /**
       * Who decided: `caller` (onPermission, or the caller's abort), `timeout` (permissionTimeoutMs), `harness` (its
       * rules, hooks or its own cancel), `mode` (its permission mode).
       */
      by: { enum: ['caller', 'timeout', 'harness', 'mode'] },
      ...when,
    },
    optional: {
      ...agent,
      /** An allow's scope. */
      scope,
      /** The allowed call runs with the caller's rewritten input. */
      rewritten: boolean,
      /** A denial's message to the model. */
      message: { type: 'string' },
      /** The denial ended the agent's turn. */
      stopped: boolean,
    },
  },
  run_ended: {
    required: { ...when },
    optional: {
      /** The run's failure class (metrics `failure`), when it failed. */
      failure: { type: 'string' },
      /** The child's exit code (spawned runs). */
      exit_code: { type: 'integer' },
      /**
       * The run's own total, where the harness reports one that is the run's alone (Gemini CLI's `result.stats`;
       * docs/usage.md "From stdout"), in the `usage` events' classes: every model call of the run, those its stream
       * does not give one by one (subagents') included.
       */
      tokens,
      /** The same total by model, where the harness breaks it down (the model as the harness names it). */
      models: { type: 'object', additionalProperties: tokens },
    },
  },
} as const satisfies Record<TraceKind, { required: object; optional: object }>;

/** The name of a trace record kind: the table's keys (`satisfies` above holds the two to each other). */
export type TraceKind =
  | 'run_started'
  | 'event'
  | 'call_started'
  | 'call_ended'
  | 'agent_started'
  | 'agent_ended'
  | 'model_call'
  | 'permission_requested'
  | 'permission_resolved'
  | 'run_ended';
export const traceKindNames = Object.keys(traceKinds) as TraceKind[];

/** trace.schema.json: every record kind, closed, discriminated on `kind`. */
export function traceSchema() {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://harness-events.dev/schemas/trace.schema.json',
    title: 'harness-events trace record',
    type: 'object',
    required: ['kind'],
    oneOf: traceKindNames.map((kind) => {
      const row: { required: object; optional: object } = traceKinds[kind];
      return {
        type: 'object',
        properties: { kind: { const: kind }, ...row.required, ...row.optional },
        required: ['kind', ...Object.keys(row.required)],
        additionalProperties: false,
      };
    }),
  };
}
