/**
 * The library as an ACP client (acp.md "The client side"), against a real peer (peer.ts): the requests from
 * the agent. Each test names the row of the page's tables it covers.
 */
import { describe, expect, test } from 'vitest';
import { permissionAnswer } from '../../../lib/harnesses/acp/client.js';
import { bodies } from '../../helpers.js';
import { freshDirEachTest, agent, collect } from './peer.js';

freshDirEachTest();

describe('requests from the agent', { timeout: 30_000 }, () => {
  test(
    'session/request_permission with `permissions: "bypass"`: the first allow_once option, not the allow_always ' +
      'before it',
    async () => {
      const { run, sent } = agent('turn', { permissions: 'bypass' });
      await collect(run);
      expect(sent().at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 100,
        result: { outcome: { outcome: 'selected', optionId: 'once' } },
      });
    },
  );

  test(
    'session/request_permission by default (no permissions option): the reject_once option, and the agent fails ' +
      'the call',
    async () => {
      const { run, sent } = agent('turn');
      const events = bodies(await collect(run));
      expect(events.slice(3, 6)).toEqual([
        // docs/contract.md "Refused tool calls": the rejection is a warning; the agent then fails the call.
        {
          type: 'warning',
          code: 'permission_denied',
          message: 'Permission denied: rm -rf build: permissions "default": the library chose no',
        },
        { type: 'command', command: 'rm -rf build', is_success: false },
        { type: 'agent', message: 'permission: {"outcome":{"outcome":"selected","optionId":"no"}}' },
      ]);
      expect(sent().at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 100,
        result: { outcome: { outcome: 'selected', optionId: 'no' } },
      });
    },
  );

  test(
    'the permission answer: allow_once, else allow_always; reject_once, else reject_always; no such option, or ' +
      'after an abort: cancelled',
    () => {
      const option = (kind: string) => ({ optionId: `id-${kind}`, name: kind, kind });
      const all = ['allow_always', 'allow_once', 'reject_always', 'reject_once'].map(option);
      expect(permissionAnswer(all, 'bypass')).toEqual({ outcome: { outcome: 'selected', optionId: 'id-allow_once' } });
      expect(permissionAnswer([option('allow_always'), option('reject_once')], 'bypass')).toEqual({
        outcome: { outcome: 'selected', optionId: 'id-allow_always' },
      });
      expect(permissionAnswer(all, 'default')).toEqual({
        outcome: { outcome: 'selected', optionId: 'id-reject_once' },
      });
      expect(permissionAnswer([option('reject_always'), option('allow_once')], 'default')).toEqual({
        outcome: { outcome: 'selected', optionId: 'id-reject_always' },
      });
      expect(permissionAnswer([option('reject_once')], 'bypass')).toEqual({ outcome: { outcome: 'cancelled' } });
      expect(permissionAnswer(all, 'bypass', true)).toEqual({ outcome: { outcome: 'cancelled' } });
      // Options the agent got wrong: not an array, an option without an id.
      expect(permissionAnswer(undefined, 'bypass')).toEqual({ outcome: { outcome: 'cancelled' } });
      expect(permissionAnswer([{ kind: 'allow_once' }], 'bypass')).toEqual({ outcome: { outcome: 'cancelled' } });
    },
  );

  test(
    'fs/*, terminal/* and an extension method: error -32601 "Method not found"; the agent broke the protocol ' +
      'with fs and terminal, so those are unknown events',
    async () => {
      const { run, sent } = agent('fs');
      const notFound = (method: string) => ({ code: -32601, message: `Method not found: ${method}` });
      expect(bodies(await collect(run))).toEqual([
        {
          type: 'unknown',
          raw: {
            jsonrpc: '2.0',
            id: 200,
            method: 'fs/read_text_file',
            params: { sessionId: 'sess-1', path: '/etc/hostname' },
          },
        },
        {
          type: 'unknown',
          raw: { jsonrpc: '2.0', id: 201, method: 'terminal/create', params: { sessionId: 'sess-1', command: 'ls' } },
        },
        // The extension request is consumed: it carries no activity the contract knows.
        {
          type: 'agent',
          message: `answers: ${JSON.stringify(['fs/read_text_file', 'terminal/create', '_acme/ping'].map(notFound))}`,
        },
      ]);
      expect(sent().slice(3)).toEqual([
        { jsonrpc: '2.0', id: 200, error: notFound('fs/read_text_file') },
        { jsonrpc: '2.0', id: 201, error: notFound('terminal/create') },
        { jsonrpc: '2.0', id: 202, error: notFound('_acme/ping') },
      ]);
    },
  );
});
