/** pi.md's raw event stream rows: session, agent and turn lines, messages, tool execution. */
import { describe, expect, test } from 'vitest';
import { records } from '../../../lib/harnesses/pi/correlate.js';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import {
  harness,
  cwd,
  session,
  assistant,
  end,
  said,
  start,
  finish,
  call,
  turnEnd,
  agentEnd,
  events,
} from './lines.js';

describe('raw event stream', () => {
  test(
    'session: its id is the session id of every later event, its cwd resolves relative paths; no event of its ' + 'own',
    async () => {
      const out = await run(jsonl(session, ...call('read', { path: 'a.ts' })), { harness });
      expect(untimed(out.events)).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true, session_id: session.id },
      ]);
      expect(out.metrics.session_id).toBe(session.id);
      expect(out.rules).toEqual([
        records.session.rules.session,
        records.tool_execution_start.rules.recorded,
        records.tool_execution_end.rules.tool,
      ]);
    },
  );

  test('session without an id is unknown (its cwd still counts)', async () => {
    const bad = { type: 'session', version: 3, cwd: '/other' };
    expect(await events(bad, ...call('read', { path: 'a.ts' }))).toEqual([
      { type: 'unknown', raw: bad },
      { type: 'read', path: '/other/a.ts', is_success: true },
    ]);
  });

  test(
    'agent_start, turn_start, turn_end, agent_end: consumed; agent_end ends the run, agent_start opens one, ' +
      'turn_end counts a turn',
    async () => {
      const out = await run(
        jsonl(session, { type: 'agent_start' }, { type: 'turn_start' }, turnEnd, agentEnd, { type: 'agent_start' }),
        { harness },
      );
      expect(out.events).toEqual([]);
      expect(out.metrics).toMatchObject({ ended: false, turns: 1 });
      expect(out.rules.slice(1)).toEqual([
        records.agent_start.rules.consumed,
        records.turn_start.rules.consumed,
        records.turn_end.rules.consumed,
        records.agent_end.rules.consumed,
        records.agent_start.rules.consumed,
      ]);
      const done = await run(jsonl(session, { type: 'agent_start' }, agentEnd), { harness });
      expect(done.metrics.ended).toBe(true);
    },
  );

  test('a stream without agent_end has not ended (the harness terminal record)', async () => {
    const out = await run(jsonl(session), { harness });
    expect(out.metrics.ended).toBe(false);
  });

  test('message_start and message_update: consumed, whatever they stream', async () => {
    const partial = assistant([{ type: 'text', text: 'Hel' }]);
    const out = await run(
      jsonl(
        { type: 'message_start', message: assistant([]) },
        {
          type: 'message_update',
          assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'Hel', partial },
          message: partial,
        },
      ),
      { harness },
    );
    expect(out.events).toEqual([]);
    expect(out.rules).toEqual([records.message_start.rules.consumed, records.message_update.rules.consumed]);
  });

  test('message_end: by message.role (the message table); without a message or a role it is unknown', async () => {
    const noMessage = { type: 'message_end' };
    const noRole = end({ content: [] });
    const out = await run(jsonl(said([{ type: 'text', text: 'hi' }]), noMessage, noRole), { harness });
    expect(bodies(out.events)).toEqual([
      { type: 'agent', message: 'hi' },
      { type: 'unknown', raw: noMessage },
      { type: 'unknown', raw: noRole },
    ]);
    expect(out.rules).toEqual([
      records.message_end.rules.assistant,
      records.message_end.rules.malformed,
      records.message_end.rules.malformed,
    ]);
  });

  test(
    'tool_execution_start: the call is recorded, no ' + 'event; its tool_execution_end classifies it with its args',
    async () => {
      const out = await run(jsonl(start('call_1', 'read', { path: 'a.ts', offset: 3 })), { harness, cwd });
      // Never ended: emitted at the end of input with success unset (docs/contract.md).
      expect(bodies(out.events)).toEqual([{ type: 'read', path: '/ws/a.ts', start_line: 3 }]);
      expect(out.rules).toEqual([records.tool_execution_start.rules.recorded]);
    },
  );

  test('tool_execution_start without a toolCallId or toolName is unknown', async () => {
    const noId = { type: 'tool_execution_start', toolName: 'read', args: { path: 'a' } };
    const noName = { type: 'tool_execution_start', toolCallId: 'call_1', args: {} };
    expect(await events(noId, noName)).toEqual([
      { type: 'unknown', raw: noId },
      { type: 'unknown', raw: noName },
    ]);
  });

  test('tool_execution_update: consumed', async () => {
    const update = {
      type: 'tool_execution_update',
      toolCallId: 'call_1',
      toolName: 'bash',
      args: { command: 'ls' },
      partialResult: { content: [{ type: 'text', text: 'a\n' }] },
    };
    const out = await run(jsonl(start('call_1', 'bash', { command: 'ls' }), update, finish('call_1', 'bash', 'a\n')), {
      harness,
      cwd,
    });
    // A bare `ls` has no operand, so no path (the shell rules).
    expect(bodies(out.events)).toEqual([{ type: 'list', is_success: true }]);
    expect(out.rules[1]).toBe(records.tool_execution_update.rules.consumed);
  });

  test(
    "tool_execution_end: the recorded call's event, " + 'success = !isError; paired by id, in the order they end',
    async () => {
      expect(
        await events(
          session,
          start('call_1', 'read', { path: 'a.ts' }),
          start('call_2', 'write', { path: 'b.ts', content: 'x' }),
          finish('call_2', 'write', 'Successfully wrote 1 bytes to b.ts'),
          finish('call_1', 'read', 'ENOENT', true),
        ),
      ).toEqual([
        { type: 'write', path: '/ws/b.ts', is_success: true },
        { type: 'read', path: '/ws/a.ts', is_success: false },
      ]);
    },
  );

  test('tool_execution_end with an isError that is not a boolean leaves success unset', async () => {
    const odd = { ...finish('call_1', 'read', 'x'), isError: 'no' };
    expect(await events(session, start('call_1', 'read', { path: 'a.ts' }), odd)).toEqual([
      { type: 'read', path: '/ws/a.ts' },
    ]);
  });

  test(
    'a tool_execution_end whose call was never started is classified from its own toolName with no input; a ' +
      'read without a path is unknown',
    async () => {
      const lone = finish('call_9', 'read', 'x');
      const ls = finish('call_8', 'ls', 'a.ts');
      const out = await run(jsonl(session, lone, ls), { harness });
      expect(bodies(out.events)).toEqual([
        { type: 'unknown', raw: { tool_execution_end: lone } },
        { type: 'list', is_success: true },
      ]);
      expect(out.rules.slice(1)).toEqual([
        records.tool_execution_end.rules.unstarted,
        records.tool_execution_end.rules.unstarted,
      ]);
    },
  );

  test('tool_execution_end without a toolName that matches no call is unknown', async () => {
    const bad = { type: 'tool_execution_end', toolCallId: 'call_1', isError: false };
    expect(await events(bad)).toEqual([{ type: 'unknown', raw: bad }]);
  });
});
