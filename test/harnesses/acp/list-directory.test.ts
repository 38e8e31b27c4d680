/**
 * acp.md, Tool calls (kind table): a call whose `_meta.toolName` is `list_directory` is a list, whatever its kind
 * (Qwen Code 0.24 over ACP: kind `search`, title `ListFiles: P`; kind `other` when the tool is disabled). Authored in
 * the shape of Qwen's calls in test/fixtures/acp/qwen/tools.jsonl (its grep_search), which has no listing.
 */
import { expect, test } from 'vitest';
import { bodies, jsonl, run } from '../../helpers.js';

const rpc = (message: Record<string, unknown>) => ({ jsonrpc: '2.0', ...message });
const initialize = rpc({
  id: 1,
  result: { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: 'qwen-code', version: '0.24.4' } },
});
const update = (fields: Record<string, unknown>) =>
  rpc({ method: 'session/update', params: { sessionId: 's1', update: fields } });

function listing(id: string, kind: string, rawInput: Record<string, unknown>, status = 'completed') {
  const _meta = { toolName: 'list_directory', provenance: 'builtin' };
  return [
    update({
      sessionUpdate: 'tool_call',
      toolCallId: id,
      status: 'pending',
      title: 'ListFiles',
      kind,
      rawInput: {},
      _meta,
    }),
    update({
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status: 'in_progress',
      title: `ListFiles: ${rawInput.path ?? ''}`,
      kind,
      rawInput,
      _meta,
    }),
    update({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content: [], _meta }),
  ];
}

test(
  '_meta.toolName list_directory: a list of rawInput.path ' + '(absent without one), success from the status',
  async () => {
    const lines = [
      initialize,
      rpc({ id: 2, result: { sessionId: 's1' } }),
      ...listing('c1', 'search', { path: 'src' }),
      ...listing('c2', 'other', {}, 'failed'),
      // Another tool of kind search stays a search.
      update({
        sessionUpdate: 'tool_call',
        toolCallId: 'c3',
        status: 'completed',
        title: 'Grep',
        kind: 'search',
        rawInput: { pattern: 'x' },
        _meta: { toolName: 'grep_search' },
      }),
    ];
    expect(bodies((await run(jsonl(...lines), { harness: 'acp', cwd: '/ws' })).events)).toEqual([
      { type: 'list', path: '/ws/src', is_success: true },
      { type: 'list', is_success: false },
      { type: 'search', query: 'x', is_success: true },
    ]);
  },
);
