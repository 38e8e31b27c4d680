import { expect, test } from 'vitest';
import { SchemaViolationError, validate } from '../../lib/transforms/validate.js';
import type { HarnessEvent } from '../../lib/kernel/events.js';

const ts = '2026-11-30T02:06:45.602Z';

function check(events: unknown[], strict = false): HarnessEvent[] {
  const out: HarnessEvent[] = [];
  const stage = validate.stage({ strict })((event) => out.push(event));
  for (const event of events) stage.write(event as HarnessEvent);
  stage.end();
  return out;
}

test('valid events pass unchanged', () => {
  const event = { type: 'read', timestamp: ts, session_id: 's1', path: '/a' };
  expect(check([event])[0]).toBe(event);
});

test('by default a violation loses nothing: a warning saying what is wrong, then the event as unknown.raw', () => {
  const bad = { type: 'read', timestamp: ts, session_id: 's1', path: '/a', content: 'secret file text' };
  const [warning, unknown] = check([bad]);
  expect(warning).toMatchObject({
    type: 'warning',
    session_id: 's1',
    code: 'invalid_event',
    message: 'read event breaks its schema: read must NOT have additional properties',
  });
  expect(unknown).toMatchObject({ type: 'unknown', session_id: 's1', raw: bad });
  expect(check([{ type: 'mystery', timestamp: ts }])[0]).toMatchObject({
    message: 'event has no known type ("mystery")',
  });
});

test('with strict, a violation is an error', () => {
  expect(() => check([{ type: 'read', timestamp: ts }], true)).toThrow(SchemaViolationError);
  expect(() => check([{ type: 'read', timestamp: ts }], true)).toThrow(
    "read event breaks its schema: read must have required property 'path'",
  );
});
