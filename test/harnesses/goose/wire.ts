/**
 * Goose stream-json records in their exact serde shapes (docs/harnesses/goose.md "Raw event stream"), for tests
 * that write streams inline. Authored, not captured: see test/fixtures/goose/SOURCES.md.
 */
import { jsonl, run } from '../../helpers.js';

const metadata = { userVisible: true, agentVisible: true };

/** A `message` record (Message: id, role, created, content, metadata). */
function message(role: string, id: string | null, ...content: unknown[]) {
  return { type: 'message', message: { id, role, created: 1764460000, content, metadata } };
}

export const assistant = (id: string | null, ...content: unknown[]) => message('assistant', id, ...content);
export const user = (id: string | null, ...content: unknown[]) => message('user', id, ...content);

export const text = (value: string) => ({ type: 'text', text: value });
export const thinking = (value: string, signature = '') => ({ type: 'thinking', thinking: value, signature });

/** A `toolRequest` whose call parsed: `toolCall: {status: "success", value: {name, arguments}}`. */
export function request(id: string, name: string, args: unknown) {
  return { type: 'toolRequest', id, toolCall: { status: 'success', value: { name, arguments: args } } };
}

/** A `toolResponse` whose tool ran: `toolResult: {status: "success", value: CallToolResult}`. */
export function response(id: string, value: unknown) {
  return { type: 'toolResponse', id, toolResult: { status: 'success', value } };
}

/** A CallToolResult of one text item, as Goose's developer tools answer. */
export function result(output: string, isError = false) {
  return { content: [{ type: 'text', text: output, annotations: { priority: 0.0 } }], isError };
}

/** A newer `shell` result: `structuredContent` carries the exit code; `isError` is set when it is not 0. */
export function shellResult(stdout: string, exitCode: number) {
  return {
    content: [{ type: 'text', text: stdout, annotations: { priority: 0.0 } }],
    structuredContent: { stdout, stderr: '', exit_code: exitCode },
    isError: exitCode !== 0,
  };
}

/** One tool call answered: the request (in an assistant message) and its response (in a user message). */
export function call(id: string, name: string, args: unknown, value: unknown = result('ok')) {
  return [assistant('chatcmpl-1', request(id, name, args)), user(`msg_${id}`, response(id, value))];
}

export const complete = (tokens: Record<string, unknown> = { total_tokens: null }) => ({ type: 'complete', ...tokens });

/** A `notification` record of an extension's log: no row reads it (unknown). */
export const logNote = { type: 'notification', extension_id: 'call_1', log: { message: 'PASS test/greet.test.ts' } };

/** Normalizes inline Goose records (strict, cwd `/ws`); a string is written as a raw line. */
export function goose(...records: unknown[]) {
  return run(jsonl(...records), { harness: 'goose', cwd: '/ws' });
}
