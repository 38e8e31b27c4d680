/**
 * Lines in Qwen Code 0.24.4's real shapes (docs/harnesses/qwen.md, test/fixtures/qwen/lab/), authored for
 * what no capture covers and to pin each rule alone, and the runs that read them as qwen or as claude-code: what
 * the rules tests (records, differences, orchestration, endings, tools, bounded) share.
 */
import { bodies, eventsOf, jsonl, run } from '../../helpers.js';

export const harness = 'qwen';
export const session = '0f7e2c1a-5b1d-4c9e-9f3a-2d6b8e4a7c10';
export const init = {
  type: 'system',
  subtype: 'init',
  uuid: session,
  session_id: session,
  cwd: '/ws',
  tools: ['read_file'],
  model: 'qwen3-coder',
  permission_mode: 'yolo',
  qwen_code_version: '0.24.4',
};

let uuids = 0;
export function assistant(
  content: unknown[],
  { parent = null, id = `msg-${++uuids}` }: { parent?: string | null; id?: string } = {},
) {
  return {
    type: 'assistant',
    uuid: id,
    session_id: session,
    parent_tool_use_id: parent,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'qwen3-coder',
      content,
      stop_reason: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    },
  };
}
export function user(content: unknown, parent: string | null = null) {
  return {
    type: 'user',
    uuid: `u-${++uuids}`,
    session_id: session,
    parent_tool_use_id: parent,
    message: { role: 'user', content },
  };
}
export function system(subtype: string, data?: unknown) {
  return { type: 'system', subtype, uuid: `s-${++uuids}`, session_id: session, parent_tool_use_id: null, data };
}
export function text(value: string) {
  return { type: 'text', text: value };
}
export function toolUse(id: string, name: string, input: unknown) {
  return { type: 'tool_use', id, name, input };
}
export function toolResult(id: string, content: unknown = 'ok', is_error = false) {
  return { type: 'tool_result', tool_use_id: id, is_error, content };
}
/** A tool call and its result, as two lines. */
export function call(name: string, input: unknown, content: unknown = 'ok', is_error = false, id = `call_${name}`) {
  return [assistant([toolUse(id, name, input)]), user([toolResult(id, content, is_error)])];
}
/** The unknown event a call whose tool has no row (or whose input does not fit it) becomes. */
export function unknownCall(name: string, input: unknown, content: unknown = 'ok', is_error = false) {
  return {
    type: 'unknown',
    raw: { tool_use: toolUse(`call_${name}`, name, input), tool_result: toolResult(`call_${name}`, content, is_error) },
  };
}
export function result(fields: Record<string, unknown> = {}) {
  return {
    type: 'result',
    subtype: 'success',
    uuid: `r-${++uuids}`,
    session_id: session,
    is_error: false,
    duration_ms: 1000,
    duration_api_ms: 800,
    num_turns: 1,
    result: 'Done.',
    usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 40, total_tokens: 110 },
    permission_denials: [],
    ...fields,
  };
}
/** Qwen's shell summary block, as it writes it for a failure (and some empty-output successes). */
export function shellBlock(command: string, exit: string, output = '(empty)') {
  return (
    `Command: ${command}\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: ${exit}\nSignal: ` +
    `(none)\nProcess Group PGID: (none)`
  );
}

export const events = eventsOf({ harness });
export async function claudeEvents(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness: 'claude-code' })).events);
}
