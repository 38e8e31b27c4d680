/**
 * The event contract as data: docs/contract.md's event types with docs/contract.md's wire names.
 * This table is the one source of both the TypeScript types (lib/kernel/events.ts derives them at the
 * type level) and the published JSON Schemas (`npm run schemas` writes schemas/*.schema.json
 * from it; a test fails when the files on disk differ).
 */
import { errorCodes, failureClasses, warningCodes } from './codes.js';

const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const lineNumber = { type: 'integer', minimum: 1 } as const;
const count = { type: 'integer', minimum: 0 } as const;
const boolean = { type: 'boolean' } as const;
const usd = { type: 'number', minimum: 0 } as const;
/** Any JSON value, carried verbatim. */
const verbatim = {} as const;
/** Date#toISOString(): UTC, milliseconds. */
const timestamp = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$' } as const;

export const tokens = {
  type: 'object',
  properties: {
    /** Input tokens not read from a cache. */
    input: count,
    /** Output tokens (reasoning included unless `reasoning` is reported apart). */
    output: count,
    /** Input tokens read from the prompt cache. */
    cache_read: count,
    /** Input tokens written to the prompt cache. */
    cache_write: count,
    /** Reasoning tokens, where the harness reports them apart from the output. */
    reasoning: count,
  },
  additionalProperties: false,
} as const;

const lineRange = {
  /** The first line the call covers (1-based), when the harness names one. */
  start_line: lineNumber,
  /** The last line the call covers (1-based, inclusive), when the harness names one. */
  end_line: lineNumber,
} as const;
/** The field every tool event shares (spread into each row, so the schemas keep their field order). */
const outcome = {
  /**
   * Whether the call succeeded (a non-zero exit code makes a command false); absent when its result was never seen.
   */
  is_success: boolean,
} as const;

const codesOf = (codes: Record<string, string>) =>
  Object.entries(codes)
    .map(([code, meaning]) => `\`${code}\` (${meaning})`)
    .join('; ');

export const stages = [
  'pull_image',
  'start_container',
  'install_harness',
  'probe_harness',
  'init_test_case',
  'teardown',
] as const;
const statuses = ['started', 'completed', 'failed'] as const;
const actions = ['subagent_started', 'subagent_completed', 'subagent_failed'] as const;

/**
 * One row per event type: its fields beside the common ones (`type`, `timestamp`, and
 * `session_id` unless `session: false`), split into required and optional.
 */
export const eventTypes = {
  agent: {
    required: {
      /** The agent's natural-language text (a long one may come in parts: `span_too_long`). */
      message: string,
    },
    optional: {},
  },
  reasoning: {
    required: {
      /** The model's reasoning text, as the harness shows it. */
      message: string,
    },
    optional: {},
  },
  command: {
    required: {
      /** The shell command line, as the agent ran it. */
      command: string,
    },
    optional: {
      /** The directory the command ran in, where the harness says or lets the library know. */
      working_directory: string,
      /** The command's exit code, when the harness reports one. */
      exit_code: integer,
      ...outcome,
    },
  },
  read: {
    required: {
      /** The file read (absolute when the run's working directory is known; normalized). */
      path: string,
    },
    optional: { ...lineRange, ...outcome },
  },
  write: {
    required: {
      /** The file written or edited (absolute when the run's working directory is known; normalized). */
      path: string,
    },
    optional: { ...lineRange, ...outcome },
  },
  search: {
    required: {
      /** What was searched for: the pattern, glob or web query. */
      query: string,
    },
    optional: {
      /** The directory or file searched, when the call names one. */
      path: string,
      ...outcome,
    },
  },
  list: {
    required: {},
    optional: {
      /** The directory listed, when the call names one. */
      path: string,
      ...outcome,
    },
  },
  skill: {
    required: {
      /** The skill's file (its SKILL.md, or the file it read). */
      path: string,
    },
    optional: {
      /** The skill's name, when the harness gives it. */
      skill_name: string,
      ...lineRange,
      ...outcome,
    },
  },
  orchestration: {
    required: {
      /** What happened to the subagent: started, completed or failed. */
      action: { enum: actions },
    },
    optional: {
      /** The subagent's id (its tool call's or session's), when the harness gives one. */
      subagent_id: string,
      /** The subagent's name or type, when the harness gives one. */
      subagent_name: string,
      ...outcome,
    },
  },
  usage: {
    required: {
      /** The turn's tokens by class; a class is present only when the harness reports it. */
      tokens,
    },
    optional: {
      /** The turn's cost in USD, when the harness reports one. */
      cost: usd,
    },
  },
  error: {
    required: {
      /** What went wrong, in the harness's (or the library's) words. */
      message: string,
    },
    optional: {
      /** The error's code: the library's own (listed in docs/events.md), otherwise the harness's. */
      code: { type: 'string', description: `The library's own: ${codesOf(errorCodes)}. Otherwise the harness's.` },
    },
  },
  warning: {
    required: {
      /** What the warning is about (for `not_json`, the line itself). */
      message: string,
    },
    optional: {
      /** The warning's code: the library's own (listed in docs/events.md), otherwise the harness's. */
      code: { type: 'string', description: `The library's own: ${codesOf(warningCodes)}. Otherwise the harness's.` },
    },
  },
  system: {
    required: {
      /** The orchestrator's lifecycle stage (`pull_image`, `install_harness`, ...). */
      stage: { enum: stages },
      /** Whether the stage started, completed or failed. */
      status: { enum: statuses },
      /** What the orchestrator says about the stage. */
      message: string,
    },
    optional: {},
    session: false,
  },
  gg: {
    required: {
      /** The gg telemetry event, verbatim. */
      event: verbatim,
    },
    optional: {},
  },
  unknown: {
    required: {
      /** The harness's record nothing else describes, verbatim (the parsed JSON value). */
      raw: verbatim,
    },
    optional: {},
  },
} as const;

/**
 * What a run reports as a whole (docs/contract.md "Run metrics"), plus the library's own account of
 * the input it read. Written by the CLI's `--metrics FILE`.
 */
export const metrics = {
  required: {
    /** The harness's name (`claude-code`, `codex`, ...; a custom harness's own). */
    harness: string,
    /** The run's token totals by class, the sum of its `usage` events. */
    tokens,
    /** The library's account of the input it read. */
    input: {
      type: 'object',
      properties: {
        /** Bytes read. */
        bytes: count,
        /** Lines read. */
        lines: count,
        /** How many lines each rule handled, by rule id (the audit trail's names). */
        rules: { type: 'object', additionalProperties: count },
      },
      required: ['bytes', 'lines', 'rules'],
      additionalProperties: false,
    },
    /** How many events of each type the run gave. */
    events: { type: 'object', additionalProperties: count },
  },
  optional: {
    /** The harness's session id, once a record named it. */
    session_id: string,
    /** The harness's terminal record was seen (absent for harnesses that have none). */
    ended: boolean,
    /** A total the harness reports without a class breakdown (Goose's `total_tokens`). */
    total_tokens: count,
    /** The run's cost in USD, as the harness reports it. */
    cost: usd,
    /** The model turns the harness counted. */
    turns: count,
    /** Tool calls the harness counted for the run (Gemini's `stats.tool_calls`, subagents' calls included). */
    tool_calls: count,
    /** The run's duration as the harness reports it, in ms. */
    duration_ms: { type: 'number', minimum: 0 },
    /** Of the duration, the time spent in model API calls (Copilot's `totalApiDurationMs`). */
    api_duration_ms: { type: 'number', minimum: 0 },
    /** The agent's final answer, as the harness's terminal record gives it. */
    final_output: string,
    /** Whether the harness reported the run as failed. */
    is_error: boolean,
    /**
     * Why the run failed, one class for every harness (absent when it did not): the first of its errors that the
     * harness's table classifies, else how the library ended it, else `other`.
     */
    failure: { enum: Object.keys(failureClasses) as (keyof typeof failureClasses)[] },
    /** Tool calls a permission setting refused (each also a `permission_denied` warning). */
    permission_denials: count,
    /** The run ended because a permission setting refused a tool call (the harness stopped at the refusal). */
    stopped_by_permission: boolean,
    /** The child's exit code (spawned runs; Copilot's `result` also reports it). */
    exit_code: integer,
    /** The signal that ended the child, if one did (spawned runs). */
    signal: string,
  },
} as const;

type EventTypeName = keyof typeof eventTypes;
export const eventTypeNames = Object.keys(eventTypes) as EventTypeName[];

const schemaBase = 'https://harness-events.dev/schemas/';

/** The module of compiled validators `npm run schemas` writes beside the schemas. */
export const validatorsModule = 'validators.ts';

interface FieldSet {
  readonly required: Readonly<Record<string, object>>;
  readonly optional: Readonly<Record<string, object>>;
}

function closedObject(
  id: string,
  title: string,
  fields: FieldSet,
  common: Record<string, object>,
  commonRequired: string[],
) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: schemaBase + id,
    title,
    type: 'object',
    properties: { ...common, ...fields.required, ...fields.optional },
    required: [...commonRequired, ...Object.keys(fields.required)],
    additionalProperties: false,
  };
}

/** The JSON Schema of one event type. */
export function eventSchema(type: EventTypeName) {
  const row: FieldSet & { session?: boolean } = eventTypes[type];
  const common: Record<string, object> = { type: { const: type }, timestamp };
  if (row.session !== false) common.session_id = { type: 'string', minLength: 1 };
  return closedObject(`${type}.schema.json`, `harness-events ${type} event`, row, common, ['type', 'timestamp']);
}

/** The union of every event type, discriminated on `type`. */
export function unionSchema() {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: schemaBase + 'event.schema.json',
    title: 'harness-events normalized event',
    type: 'object',
    required: ['type'],
    discriminator: { propertyName: 'type' },
    oneOf: eventTypeNames.map((type) => ({ $ref: `${type}.schema.json` })),
  };
}

export function metricsSchema() {
  return closedObject('metrics.schema.json', 'harness-events run metrics', metrics, {}, []);
}

/** Every published schema by file name, as `npm run schemas` writes them. */
export function allSchemas(): Record<string, object> {
  const files: Record<string, object> = {};
  for (const type of eventTypeNames) files[`${type}.schema.json`] = eventSchema(type);
  files['event.schema.json'] = unionSchema();
  files['metrics.schema.json'] = metricsSchema();
  return files;
}
