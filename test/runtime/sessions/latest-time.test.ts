/**
 * Which of a session's times is the latest (its listing's `updated`, and `follow --latest`'s pick): by the instant
 * each names, not as strings, which sort a time without milliseconds, or in another zone, wrong (issue 38).
 */
import { expect, test } from 'vitest';
import { latestTime } from '../../../lib/runtime/sessions/sessions.js';

test('the latest instant wins, whatever the precision or zone of each time', () => {
  // As strings 'Z' sorts after '.', so the whole second would win over the later millisecond.
  expect(latestTime(['2026-12-05T08:00:00Z', '2026-12-05T08:00:00.500Z'])).toBe('2026-12-05T08:00:00.500Z');
  // 09:30+02:00 is 07:30Z: earlier than 08:00Z, though it sorts after it as a string.
  expect(latestTime(['2026-12-05T08:00:00.000Z', '2026-12-05T09:30:00.000+02:00'])).toBe('2026-12-05T08:00:00.000Z');
});

test('an unparsable time never wins over a real one; none at all is undefined', () => {
  expect(latestTime(['not a time', '2026-01-01T00:00:00Z'])).toBe('2026-01-01T00:00:00Z');
  expect(latestTime(['2026-01-01T00:00:00Z', 'zzz'])).toBe('2026-01-01T00:00:00Z');
  expect(latestTime([])).toBeUndefined();
});
