/**
 * Stage 5, the JSON-schema validator: events in, events out.
 *
 * Every event is checked against its type's schema, compiled into plain functions when the
 * schemas are written (lib/kernel/validators.ts), so no schema compiler loads at run time. By
 * default a violation loses nothing: a `warning` with code `invalid_event` saying what is
 * wrong, then the offending event as `unknown.raw`. With `strict`, a violation is a stream
 * error instead (the test suite runs strict).
 */
import * as compiled from '../kernel/validators.js';
import { eventTypeNames } from '../kernel/contract.js';
import { now } from '../kernel/clock.js';
import type { HarnessEvent } from '../kernel/events.js';
import { stamp } from '../kernel/stamp.js';
import { nestedDeeperThan } from '../kernel/json.js';
import { defineStage, type Sink, type Stage } from '../kernel/stage.js';

/** What the {@link validate} stage takes. */
export interface ValidateOptions {
  /** A schema violation is a stream error rather than a warning plus an `unknown` event. */
  strict?: boolean;
}

/** The stream error of `strict`: an event broke its schema (a custom harness's bug, or the library's). */
export class SchemaViolationError extends Error {
  constructor(
    message: string,
    /** The event that broke its schema. */
    readonly event: unknown,
  ) {
    super(message);
    this.name = 'SchemaViolationError';
  }
}

interface SchemaError {
  instancePath: string;
  message?: string;
}
type Validator = ((event: unknown) => boolean) & { errors?: SchemaError[] | null };

const compiledValidators = compiled as unknown as Record<string, Validator>;
/** One validator per event type, compiled from the schemas at build time (lib/kernel/validators.ts). */
const validators = new Map<string, Validator>(eventTypeNames.map((type) => [type, compiledValidators[type]!]));

/** What a validator found wrong, as ajv words it (`read/start_line must be >= 1`). */
function errorsOf(validate: Validator, name: string): string {
  return (validate.errors ?? [])
    .map((error) => `${name}${error.instancePath} ${error.message ?? 'is invalid'}`)
    .join(', ');
}

/** Why `event` breaks the contract, or undefined when it does not. */
export function violationOf(event: unknown): string | undefined {
  const type = (event as { type?: unknown } | null)?.type;
  const validate = typeof type === 'string' ? validators.get(type) : undefined;
  if (!validate) return `event has no known type (${JSON.stringify(type)})`;
  return validate(event) ? undefined : `${type} event breaks its schema: ${errorsOf(validate, type as string)}`;
}

/** Why `value` is not run metrics (schemas/metrics.schema.json), or undefined when it is. */
export function metricsViolationOf(value: unknown): string | undefined {
  const validate = compiledValidators.metrics!;
  return validate(value) ? undefined : errorsOf(validate, 'metrics');
}

/**
 * The deepest harness value an event may carry verbatim (`unknown.raw`, `gg.event`). Real records
 * nest a dozen levels; `JSON.stringify` overflows at a few thousand.
 */
const MAX_VERBATIM_DEPTH = 1000;

function validator(sink: Sink<HarnessEvent>, options: ValidateOptions = {}): Stage<HarnessEvent> {
  return {
    write(event) {
      if (
        (event.type === 'unknown' || event.type === 'gg') &&
        nestedDeeperThan(event.type === 'unknown' ? event.raw : event.event, MAX_VERBATIM_DEPTH)
      ) {
        const message =
          `a record nested more than ${MAX_VERBATIM_DEPTH} levels deep cannot be carried as JSON (no ` +
          `consumer could serialize it): dropped from this ${event.type} event`;
        return sink(stamp({ type: 'warning', code: 'too_deep', message }, event.timestamp, event.session_id));
      }
      const violation = violationOf(event);
      if (violation === undefined) return sink(event);
      if (options.strict) throw new SchemaViolationError(violation, event);
      const session = (event as { session_id?: unknown }).session_id;
      const session_id = typeof session === 'string' && session !== '' ? session : undefined;
      const timestamp = now();
      sink(stamp({ type: 'warning', code: 'invalid_event', message: violation }, timestamp, session_id));
      sink(stamp({ type: 'unknown', raw: event }, timestamp, session_id));
    },
    end() {},
  };
}

/**
 * The validator: events in, valid events out. `validate(options)` is a Transform; `validate.stage(options)` the same
 * stage for `compose`.
 */
export const validate = defineStage(validator);
