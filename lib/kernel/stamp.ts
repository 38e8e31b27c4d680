import type { EventBody, HarnessEvent } from './events.js';

/**
 * The wire form of an event body: `type`, `timestamp`, `session_id` (never on `system`), then
 * the body's fields, leaving out those that are unset (docs/contract.md: optional fields are omitted,
 * never null or undefined).
 */
export function stamp(body: EventBody, timestamp: string, session_id: string | undefined): HarnessEvent {
  const event: Record<string, unknown> = { type: body.type, timestamp };
  if (session_id !== undefined && body.type !== 'system') event.session_id = session_id;
  const fields = body as Record<string, unknown>;
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined && key !== 'type') event[key] = value;
  }
  return event as HarnessEvent;
}
