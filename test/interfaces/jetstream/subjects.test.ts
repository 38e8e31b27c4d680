/** The subject scheme and message ids (lib/interfaces/jetstream/subjects.ts): pure functions. */
import { describe, expect, test } from 'vitest';
import {
  checkPrefix,
  checkToken,
  filterSubject,
  messageIdOf,
  parseSubject,
  positionOf,
  streamDefaults,
  subjectOf,
} from '../../../lib/interfaces/jetstream/subjects.js';

describe('subjects', () => {
  test('one subject per run and type, the metrics under the same run', () => {
    expect(subjectOf('harness', 'claude-code', 'r-1', 'command')).toBe('harness.claude-code.r-1.command');
    expect(subjectOf('ci.agents', 'goose', 'r-1', 'metrics')).toBe('ci.agents.goose.r-1.metrics');
    expect(parseSubject('harness', 'harness.claude-code.r-1.command')).toEqual({
      harness: 'claude-code',
      run: 'r-1',
      kind: 'command',
    });
    expect(parseSubject('ci.agents', 'ci.agents.goose.r-1.metrics')).toEqual({
      harness: 'goose',
      run: 'r-1',
      kind: 'metrics',
    });
  });

  test('subjects outside the scheme are not parsed', () => {
    expect(parseSubject('harness', 'other.claude-code.r.agent')).toBeUndefined();
    expect(parseSubject('harness', 'harness.claude-code.agent')).toBeUndefined();
    expect(parseSubject('harness', 'harness.a.b.c.d')).toBeUndefined();
    expect(parseSubject('harness', 'harnesses.a.b.c')).toBeUndefined();
  });

  test('message ids: the run and the 1-based position in it', () => {
    expect(messageIdOf('codex', 'r-1', 42)).toBe('codex.r-1.42');
    expect(positionOf('codex.r-1.42')).toBe(42);
    expect(positionOf(undefined)).toBeUndefined();
    expect(positionOf('codex.r-1.x')).toBeUndefined();
    expect(positionOf('codex.r-1.0')).toBeUndefined();
  });

  test('filters: tokens of the scheme, wildcards for the rest, or a subject as given', () => {
    expect(filterSubject('harness')).toBe('harness.*.*.*');
    expect(filterSubject('harness', { run: 'r-1' })).toBe('harness.*.r-1.*');
    expect(filterSubject('harness', { harness: 'goose', type: 'command' })).toBe('harness.goose.*.command');
    expect(filterSubject('harness', 'harness.goose.>')).toBe('harness.goose.>');
    expect(() => filterSubject('harness', { run: 'a.b' })).toThrow('run "a.b" cannot be a NATS subject token');
  });

  test('tokens: no dots, wildcards or whitespace', () => {
    for (const bad of ['', 'a.b', '*', 'a>', 'a b', 'a\tb']) expect(() => checkToken('run', bad)).toThrow(TypeError);
    expect(checkToken('run', '5c652eec-0b1d-4d0b-9d39-6e3f1f0c8a11')).toBe('5c652eec-0b1d-4d0b-9d39-6e3f1f0c8a11');
    expect(checkPrefix('ci.agents')).toBe('ci.agents');
    expect(() => checkPrefix('ci..agents')).toThrow(TypeError);
  });

  test(
    'the stream created when missing: every subject under ' + 'the prefix, on disk, 30 days, 2-minute de-duplication',
    () => {
      expect(streamDefaults('HARNESS_EVENTS', 'harness')).toEqual({
        name: 'HARNESS_EVENTS',
        subjects: ['harness.>'],
        storage: 'file',
        retention: 'limits',
        discard: 'old',
        max_age: 30 * 24 * 3600 * 1e9,
        duplicate_window: 120 * 1e9,
      });
    },
  );
});
