/** The exit decision on its own: each ending's exit code, signal, events and failure, from the facts alone. */
import { describe, expect, test } from 'vitest';
import { decideEnding, type EndingFacts } from '../../../lib/runtime/run/ending.js';

const facts = (more: Partial<EndingFacts>): EndingFacts => ({
  command: 'claude',
  harness: { name: 'claude-code', terminal: 'result', exitCodes: new Map([[53, 'the turn limit']]) },
  exit: { code: 0, signal: null, ours: false },
  ended: true,
  aborted: false,
  ...more,
});
const incomplete = {
  type: 'warning',
  code: 'incomplete',
  message: 'claude-code ended without its terminal record (result): the run is incomplete',
};

describe('decideEnding', () => {
  test('exit 0 with the terminal record: a success, no events', () => {
    expect(decideEnding(facts({}))).toEqual({ exitCode: 0, signal: undefined, events: [] });
  });

  test('exit 0 without the terminal record: the incomplete warning, still a success', () => {
    expect(decideEnding(facts({ ended: false }))).toEqual({ exitCode: 0, signal: undefined, events: [incomplete] });
  });

  test('a non-zero exit: the exit_code error, the failure with its message', () => {
    const message = 'claude exited with code 3';
    expect(decideEnding(facts({ exit: { code: 3, signal: null, ours: false }, ended: false }))).toEqual({
      exitCode: 3,
      signal: undefined,
      events: [incomplete, { type: 'error', code: 'exit_code', message }],
      reason: 'exit_code',
      detail: message,
    });
  });

  test('an exit the harness documents as its own stop: named, and no incomplete warning', () => {
    const message = 'claude exited with code 53 (the turn limit)';
    expect(decideEnding(facts({ exit: { code: 53, signal: null, ours: false }, ended: false }))).toMatchObject({
      events: [{ type: 'error', code: 'exit_code', message }],
      reason: 'exit_code',
    });
  });

  test("a signal the library did not send: killed; one it sent (an abort): the abort's failure, no error event", () => {
    const killed = 'claude was killed by SIGKILL';
    expect(decideEnding(facts({ exit: { code: null, signal: 'SIGKILL', ours: false } }))).toEqual({
      exitCode: undefined,
      signal: 'SIGKILL',
      events: [{ type: 'error', code: 'killed', message: killed }],
      reason: 'killed',
      detail: killed,
    });
    expect(decideEnding(facts({ exit: { code: null, signal: 'SIGTERM', ours: true }, aborted: true }))).toEqual({
      exitCode: undefined,
      signal: 'SIGTERM',
      events: [],
      reason: 'aborted',
      detail: 'claude was stopped: the run was aborted',
    });
  });

  test('a failure before the exit (the timeout) wins over the exit code, whose event still comes', () => {
    const failure = { reason: 'timeout' as const, detail: 'too long', cause: undefined };
    expect(decideEnding(facts({ exit: { code: 1, signal: null, ours: true }, failure, aborted: true }))).toEqual({
      exitCode: 1,
      signal: undefined,
      events: [{ type: 'error', code: 'exit_code', message: 'claude exited with code 1' }],
      reason: 'timeout',
      detail: 'too long',
    });
  });

  test("an ACP conversation's exit code overrides the child's, with no event and no signal of its own", () => {
    const message = 'the conversation with claude ended with exit code 1';
    const exit = { code: null, signal: 'SIGTERM' as const, ours: true };
    expect(decideEnding(facts({ exit, decided: 1 }))).toEqual({
      exitCode: 1,
      signal: undefined,
      events: [],
      reason: 'exit_code',
      detail: message,
    });
    expect(decideEnding(facts({ exit, decided: 0 }))).toEqual({ exitCode: 0, signal: undefined, events: [] });
  });
});
