/**
 * One run cycle of each benchmarked harness, in its real record shapes (test/fixtures): the lines
 * it prints for a few turns of work, with fresh ids per cycle `n`; `big` adds a multi-megabyte line.
 */
import type { BenchHarness } from './generate.js';

const words =
  'the a to of and in is for on that with this file test function return const value error line code read write ' +
  'search list'.split(' ');

function prose(next: () => number, length: number): string {
  let text = '';
  while (text.length < length) text += words[Math.floor(next() * words.length)] + (next() < 0.1 ? '.\n' : ' ');
  return text;
}

function fileText(next: () => number, lines: number): string {
  let text = '';
  for (let i = 1; i <= lines; i++)
    text += `${i}\t  const value${i} = compute(${Math.floor(next() * 1000)}); // ${prose(next, 30)}\n`;
  return text;
}

export const line = (record: unknown) => JSON.stringify(record) + '\n';

/** One run cycle of each harness: the lines it prints for a few turns of work. */
export const cycles: Record<BenchHarness, (n: number, next: () => number, big: boolean) => string[]> = {
  'claude-code': (n, next, big) => {
    const session = 'b8a5e2f0-0000-4000-8000-000000000001';
    const base = { parent_tool_use_id: null, session_id: session };
    const assistant = (id: string, block: unknown) =>
      line({
        type: 'assistant',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: 'claude-opus-5-5',
          content: [block],
          stop_reason: null,
          usage: { input_tokens: 120, output_tokens: 1 },
        },
        ...base,
      });
    const content = fileText(next, 400 + Math.floor(next() * 400));
    const out = [
      line({ type: 'system', subtype: 'status', status: 'requesting', ...base }),
      // Partial messages: many small records.
      ...Array.from({ length: 24 }, (_, i) =>
        line({
          type: 'stream_event',
          event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: prose(next, 12) } },
          ...base,
          uuid: `u${n}-${i}`,
        }),
      ),
      assistant(`msg_${n}_0`, { type: 'thinking', thinking: prose(next, 400), signature: 'EqQBCkYIBxgCKkA' }),
      assistant(`msg_${n}_0`, { type: 'text', text: prose(next, 200) }),
      assistant(`msg_${n}_0`, {
        type: 'tool_use',
        id: `toolu_${n}_r`,
        name: 'Read',
        input: { file_path: `/home/user/project/src/module${n % 97}.ts`, offset: 1, limit: 800 },
      }),
      line({
        type: 'user',
        message: { role: 'user', content: [{ tool_use_id: `toolu_${n}_r`, type: 'tool_result', content }] },
        ...base,
        tool_use_result: {
          type: 'text',
          file: {
            filePath: `/home/user/project/src/module${n % 97}.ts`,
            content,
            numLines: 800,
            startLine: 1,
            totalLines: 800,
          },
        },
      }),
      assistant(`msg_${n}_1`, {
        type: 'tool_use',
        id: `toolu_${n}_b`,
        name: 'Bash',
        input: { command: n % 2 ? 'npm test' : `rg -n value${n % 50} src`, description: 'run' },
      }),
      line({
        type: 'user',
        message: {
          role: 'user',
          content: [{ tool_use_id: `toolu_${n}_b`, type: 'tool_result', content: prose(next, 4000), is_error: false }],
        },
        ...base,
        tool_use_result: { stdout: prose(next, 4000), stderr: '', interrupted: false },
      }),
      assistant(`msg_${n}_2`, {
        type: 'tool_use',
        id: `toolu_${n}_e`,
        name: 'Edit',
        input: {
          file_path: `/home/user/project/src/module${n % 97}.ts`,
          old_string: prose(next, 300),
          new_string: prose(next, 300),
        },
      }),
      line({
        type: 'user',
        message: {
          role: 'user',
          content: [
            { tool_use_id: `toolu_${n}_e`, type: 'tool_result', content: 'The file has been updated successfully.' },
          ],
        },
        ...base,
      }),
      line({
        type: 'system',
        subtype: 'task_progress',
        task_id: `t${n}`,
        description: 'Working',
        usage: { total_tokens: n, tool_uses: 3, duration_ms: 1200 },
        ...base,
      }),
      line({
        type: 'rate_limit_event',
        rate_limit_info: { status: 'allowed', resetsAt: 1796008004, rateLimitType: 'five_hour' },
        ...base,
      }),
      assistant(`msg_${n}_3`, { type: 'text', text: prose(next, 600) }),
      line({
        type: 'result',
        subtype: 'success',
        is_error: false,
        duration_ms: 5000,
        num_turns: 4,
        result: 'done',
        total_cost_usd: 0.01 * n,
        usage: {
          input_tokens: 480,
          output_tokens: 100,
          cache_read_input_tokens: 9000,
          cache_creation_input_tokens: 300,
        },
        ...base,
      }),
    ];
    if (big) {
      // A screenshot Read: base64 in the result and again in tool_use_result, as 2.1.x sends it
      // (a 1.3 MB image, twice: real sessions have 1.3 MB lines; the 2.0.22 capture has a 1.1 MB one).
      const image = 'iVBORw0KGgo'.repeat(120_000);
      out.push(
        assistant(`msg_${n}_img`, {
          type: 'tool_use',
          id: `toolu_${n}_img`,
          name: 'Read',
          input: { file_path: '/home/user/project/shot.png' },
        }),
      );
      out.push(
        line({
          type: 'user',
          message: {
            role: 'user',
            content: [
              {
                tool_use_id: `toolu_${n}_img`,
                type: 'tool_result',
                content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } }],
              },
            ],
          },
          ...base,
          tool_use_result: { type: 'image', file: { base64: image, type: 'image/png', originalSize: image.length } },
        }),
      );
    }
    return out;
  },

  goose: (n, next, big) => {
    const metadata = { userVisible: true, agentVisible: true };
    const message = (role: string, id: string | null, ...content: unknown[]) =>
      line({ type: 'message', message: { id, role, created: 1764460000 + n, content, metadata } });
    const output = big ? fileText(next, 40_000) : fileText(next, 300 + Math.floor(next() * 300));
    return [
      // Deltas: many small records sharing one id.
      ...Array.from({ length: 20 }, () =>
        message('assistant', `chatcmpl-${n}`, { type: 'thinking', thinking: prose(next, 20), signature: '' }),
      ),
      ...Array.from({ length: 30 }, () =>
        message('assistant', `chatcmpl-${n}`, { type: 'text', text: prose(next, 15) }),
      ),
      message('assistant', `chatcmpl-${n}`, {
        type: 'toolRequest',
        id: `call_${n}_v`,
        toolCall: {
          status: 'success',
          value: {
            name: 'developer__text_editor',
            arguments: { command: 'view', path: `/ws/src/module${n % 97}.rs`, view_range: [1, 600] },
          },
        },
      }),
      message('user', `msg_${n}_v`, {
        type: 'toolResponse',
        id: `call_${n}_v`,
        toolResult: {
          status: 'success',
          value: {
            content: [
              { type: 'text', text: output, annotations: { audience: ['assistant'] } },
              { type: 'text', text: output, annotations: { audience: ['user'], priority: 0 } },
            ],
            isError: false,
          },
        },
      }),
      line({ type: 'notification', extension_id: `call_${n}_v`, log: { message: prose(next, 80) } }),
      message('assistant', `chatcmpl-${n}b`, {
        type: 'toolRequest',
        id: `call_${n}_s`,
        toolCall: {
          status: 'success',
          value: { name: 'shell', arguments: { command: n % 2 ? 'cargo test' : `rg -n value${n % 40} src` } },
        },
      }),
      message('user', `msg_${n}_s`, {
        type: 'toolResponse',
        id: `call_${n}_s`,
        toolResult: {
          status: 'success',
          value: {
            content: [{ type: 'text', text: prose(next, 3000) }],
            structuredContent: { stdout: prose(next, 3000), stderr: '', exit_code: 0 },
            isError: false,
          },
        },
      }),
      ...Array.from({ length: 12 }, () =>
        message('assistant', `chatcmpl-${n}c`, { type: 'text', text: prose(next, 25) }),
      ),
      line({ type: 'complete', total_tokens: 1000 * n, input_tokens: 800 * n, output_tokens: 200 * n }),
    ];
  },

  opencode: (n, next, big) => {
    const session = 'ses_bench000000000000000001';
    const common = (type: string, part: Record<string, unknown>) =>
      line({
        type,
        timestamp: 1764460000000 + n,
        sessionID: session,
        part: {
          id: `prt_${n}_${type}_${Math.floor(next() * 1e9)}`,
          sessionID: session,
          messageID: `msg_${n}`,
          ...part,
        },
      });
    const output = big ? fileText(next, 40_000) : fileText(next, 400 + Math.floor(next() * 400));
    const tokens = { total: 2400, input: 600, output: 40, reasoning: 10, cache: { read: 1750, write: 0 } };
    return [
      common('step_start', { type: 'step-start', snapshot: 'a1b2c3' }),
      common('reasoning', { type: 'reasoning', text: prose(next, 500), time: { start: 1, end: 2 } }),
      common('text', { type: 'text', text: prose(next, 300), time: { start: 1, end: 2 } }),
      common('tool_use', {
        type: 'tool',
        tool: 'read',
        callID: `call_${n}_r`,
        state: {
          status: 'completed',
          input: { filePath: `/home/user/project/src/module${n % 97}.ts`, offset: 1, limit: 800 },
          output: `<path>/home/user/project/src/module${n % 97}.ts</path><content>${output}</content>`,
          title: 'src/module.ts',
          metadata: { preview: output.slice(0, 2000), truncated: false },
          time: { start: 1, end: 2 },
        },
      }),
      common('step_finish', { type: 'step-finish', reason: 'tool-calls', cost: 0.001, tokens }),
      common('step_start', { type: 'step-start', snapshot: 'a1b2c4' }),
      common('tool_use', {
        type: 'tool',
        tool: 'bash',
        callID: `call_${n}_b`,
        state: {
          status: 'completed',
          input: { command: n % 2 ? 'bun test' : `grep -rn value${n % 40} src`, description: 'run' },
          output: prose(next, 4000),
          title: 'run',
          metadata: { output: prose(next, 4000), exit: 0, truncated: false },
          time: { start: 1, end: 2 },
        },
      }),
      common('tool_use', {
        type: 'tool',
        tool: 'edit',
        callID: `call_${n}_e`,
        state: {
          status: 'completed',
          input: {
            filePath: `/home/user/project/src/module${n % 97}.ts`,
            oldString: prose(next, 300),
            newString: prose(next, 300),
          },
          output: 'Edit applied successfully.',
          title: 'src/module.ts',
          metadata: { diff: prose(next, 900) },
          time: { start: 1, end: 2 },
        },
      }),
      common('step_finish', { type: 'step-finish', reason: 'tool-calls', cost: 0.001, tokens }),
      common('step_start', { type: 'step-start', snapshot: 'a1b2c5' }),
      common('text', { type: 'text', text: prose(next, 800), time: { start: 1, end: 2 } }),
      common('step_finish', { type: 'step-finish', reason: 'stop', cost: 0.001, tokens }),
    ];
  },

  codex: (n, next, big) => {
    const output = big ? fileText(next, 40_000) : fileText(next, 300 + Math.floor(next() * 300));
    const command = (id: string, script: string, status: string, exit: number | null, aggregated: string) => ({
      id,
      type: 'command_execution',
      command: `/bin/bash -lc '${script}'`,
      aggregated_output: aggregated,
      exit_code: exit,
      status,
    });
    return [
      line({ type: 'turn.started' }),
      line({ type: 'item.completed', item: { id: `item_${n}_0`, type: 'reasoning', text: prose(next, 600) } }),
      line({
        type: 'item.started',
        item: command(`item_${n}_1`, `sed -n 1,600p src/module${n % 97}.rs`, 'in_progress', null, ''),
      }),
      line({
        type: 'item.completed',
        item: command(`item_${n}_1`, `sed -n 1,600p src/module${n % 97}.rs`, 'completed', 0, output),
      }),
      line({ type: 'item.started', item: command(`item_${n}_2`, 'cargo test', 'in_progress', null, '') }),
      line({
        type: 'item.completed',
        item: command(`item_${n}_2`, 'cargo test', n % 5 ? 'completed' : 'failed', n % 5 ? 0 : 101, prose(next, 5000)),
      }),
      line({
        type: 'item.started',
        item: {
          id: `item_${n}_3`,
          type: 'file_change',
          changes: [{ path: `/ws/src/module${n % 97}.rs`, kind: 'update' }],
          status: 'in_progress',
        },
      }),
      line({
        type: 'item.completed',
        item: {
          id: `item_${n}_3`,
          type: 'file_change',
          changes: [{ path: `/ws/src/module${n % 97}.rs`, kind: 'update' }],
          status: 'completed',
        },
      }),
      line({ type: 'item.completed', item: { id: `item_${n}_4`, type: 'agent_message', text: prose(next, 700) } }),
      line({
        type: 'turn.completed',
        usage: {
          input_tokens: 9000 * n,
          cached_input_tokens: 8000 * n,
          output_tokens: 60 * n,
          reasoning_output_tokens: 40 * n,
        },
      }),
    ];
  },
};
