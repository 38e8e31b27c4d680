/**
 * Stage 5, the JSON-schema validator: events in, events out.
 *
 * Every event is checked against its type's schema (schemas/, compiled once per process). By
 * default a violation loses nothing: a `warning` with code `invalid_event` saying what is
 * wrong, then the offending event as `unknown.raw`. With `strict`, a violation is a stream
 * error instead (the test suite runs strict).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { eventSchema, eventTypeNames, unionSchema, type EventTypeName } from '../schemas/contract.js';
import { now } from '../lib/clock.js';
import type { HarnessEvent } from '../lib/events.js';
import { stamp } from '../lib/stamp.js';
import { nestedDeeperThan } from '../lib/json.js';
import { toTransform, type Sink, type Stage } from '../lib/stage.js';

export interface ValidateOptions {
  /** A schema violation is a stream error rather than a warning plus an `unknown` event. */
  strict?: boolean;
}

export class SchemaViolationError extends Error {
  constructor(
    message: string,
    readonly event: unknown,
  ) {
    super(message);
    this.name = 'SchemaViolationError';
  }
}

let schemas: { ajv: Ajv2020; byType: Map<string, ValidateFunction | undefined> } | undefined;

/** The ajv instance holding every event schema; each type's validator is compiled on its first event, once per process. */
export function schemaValidators() {
  if (schemas) return schemas;
  // The schemas are generated and checked against the 2020-12 meta-schema by test/contract.test.ts:
  // validating them again here would cost every process ~100 ms.
  const ajv = new Ajv2020({ discriminator: true, allErrors: false, validateSchema: false });
  for (const type of eventTypeNames) ajv.addSchema(eventSchema(type));
  ajv.addSchema(unionSchema());
  schemas = { ajv, byType: new Map(eventTypeNames.map((type) => [type, undefined])) };
  return schemas;
}

function validatorFor(type: unknown): ValidateFunction | undefined {
  const { ajv, byType } = schemaValidators();
  if (typeof type !== 'string' || !byType.has(type)) return undefined;
  let validate = byType.get(type);
  if (validate === undefined) {
    validate = ajv.getSchema(eventSchema(type as EventTypeName).$id)!;
    byType.set(type, validate);
  }
  return validate;
}

/** Why `event` breaks the contract, or undefined when it does not. */
export function violationOf(event: unknown): string | undefined {
  const type = (event as { type?: unknown } | null)?.type;
  const validate = validatorFor(type);
  if (!validate || typeof type !== 'string') return `event has no known type (${JSON.stringify(type)})`;
  if (validate(event)) return undefined;
  return `${type} event breaks its schema: ${schemaValidators().ajv.errorsText(validate.errors, { dataVar: type })}`;
}

/**
 * The deepest harness value an event may carry verbatim (`unknown.raw`, `gg.event`). Real records
 * nest a dozen levels; `JSON.stringify` overflows at a few thousand.
 */
export const MAX_VERBATIM_DEPTH = 1000;

export function validator(sink: Sink<HarnessEvent>, options: ValidateOptions = {}): Stage<HarnessEvent> {
  return {
    write(event) {
      if ((event.type === 'unknown' || event.type === 'gg') && nestedDeeperThan(event.type === 'unknown' ? event.raw : event.event, MAX_VERBATIM_DEPTH)) {
        const message = `a record nested more than ${MAX_VERBATIM_DEPTH} levels deep cannot be carried as JSON (no consumer could serialize it): dropped from this ${event.type} event`;
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

/** The validator as a Transform: events in, valid events out. */
export function validate(options: ValidateOptions = {}) {
  return toTransform<HarnessEvent, HarnessEvent>((sink) => validator(sink, options));
}
