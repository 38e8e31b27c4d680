/**
 * Issue 30 item 11: pending tool calls are bounded in bytes as well as in count. Unanswered 1 MB `Write` calls: past
 * maxPendingBytes the oldest are emitted unresolved as they come, not held to the end of input.
 */
import { describe, expect, test } from 'vitest';
import { createNormalizer, type HarnessEvent } from '../../lib/index.js';
import { DEFAULT_MAX_PENDING_BYTES } from '../../lib/transforms.js';

const write = (n: number) =>
  JSON.stringify({
    type: 'assistant',
    message: {
      id: `m${n}`,
      type: 'message',
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: `t${n}`,
          name: 'Write',
          input: { file_path: `/ws/f${n}`, content: 'x'.repeat(1 << 20) },
        },
      ],
    },
    parent_tool_use_id: null,
    session_id: 's',
  }) + '\n';

/** Cline's: an `editor` call announced by its content_start, never ended. */
const editor = (n: number) =>
  JSON.stringify({
    ts: '2026-12-01T20:35:26.727Z',
    type: 'agent_event',
    event: {
      type: 'content_start',
      contentType: 'tool',
      toolName: 'editor',
      toolCallId: `call_${n}`,
      input: { path: `/ws/f${n}`, new_text: 'x'.repeat(1 << 20) },
    },
  }) + '\n';

/** Writes `calls` unanswered write calls; the write events emitted before the input ends, and in all. */
async function unanswered(
  calls: number,
  options: { maxPendingBytes?: number },
  harness: 'claude-code' | 'cline' = 'claude-code',
) {
  const normalizer = createNormalizer({ harness, cwd: '/ws', strict: true, ...options });
  const writes: HarnessEvent[] = [];
  normalizer.on('data', (event: HarnessEvent) => event.type === 'write' && writes.push(event));
  for (let n = 1; n <= calls; n++) normalizer.write(harness === 'cline' ? editor(n) : write(n));
  // Everything written has been through the stages (they are synchronous): what is still held is held.
  await new Promise(setImmediate);
  const beforeEnd = writes.length;
  normalizer.end();
  await new Promise((resolve) => normalizer.on('end', resolve));
  return { beforeEnd, writes };
}

describe('issue 30 item 11: the bytes held for pending calls', () => {
  test(
    'maxPendingBytes 4 MiB, 20 calls of 1 MB: at most 3 held, the ' + 'oldest emitted unresolved as they come',
    async () => {
      const { beforeEnd, writes } = await unanswered(20, { maxPendingBytes: 4 << 20 });
      expect(beforeEnd).toBe(17);
      expect(writes.map((event) => event.type === 'write' && event.path)).toEqual(
        Array.from({ length: 20 }, (_, n) => `/ws/f${n + 1}`),
      );
      expect(writes.every((event) => !('is_success' in event))).toBe(true);
    },
  );

  test(
    "Cline's pending calls too: 20 editor calls of 1 MB, each sized " + 'once (its input is part of its line)',
    async () => {
      const { beforeEnd, writes } = await unanswered(20, { maxPendingBytes: 4 << 20 }, 'cline');
      expect(beforeEnd).toBe(17);
      expect(writes.map((event) => event.type === 'write' && event.path)).toEqual(
        Array.from({ length: 20 }, (_, n) => `/ws/f${n + 1}`),
      );
    },
  );

  test('the default is 64 MiB: 70 calls of 1 MB, the first 7 emitted before the end', async () => {
    expect(DEFAULT_MAX_PENDING_BYTES).toBe(64 * 1024 * 1024);
    const { beforeEnd, writes } = await unanswered(70, {});
    expect(beforeEnd).toBe(7);
    expect(writes).toHaveLength(70);
  });
});
