/**
 * Records in pi 0.73.1's real shapes (docs/harnesses/pi.md, the lab captures), authored for the rows no capture
 * covers and to pin each rule alone, and the run that reads them: what the rules tests (records, lifecycle,
 * messages, tools) share.
 */
import { eventsOf } from '../../helpers.js';

export const harness = 'pi';
export const cwd = '/ws';

export const session = {
  type: 'session',
  version: 3,
  id: '01a22f20-0000-7000-8000-000000000001',
  timestamp: '2026-12-01T01:00:00.000Z',
  cwd,
};
export const zero = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

interface AssistantOptions {
  usage?: unknown;
  stopReason?: string;
  errorMessage?: string;
}

/** An assistant message as pi writes it. */
export function assistant(
  content: unknown[],
  { usage = zero, stopReason = 'stop', errorMessage }: AssistantOptions = {},
) {
  return {
    role: 'assistant',
    content,
    api: 'openai-completions',
    provider: 'lab',
    model: 'fake-model',
    usage,
    stopReason,
    timestamp: 1796087001151,
    errorMessage,
  };
}
export function end(message: unknown) {
  return { type: 'message_end', message };
}
export function said(content: unknown[], options?: AssistantOptions) {
  return end(assistant(content, options));
}
export function failed(errorMessage: string | undefined, stopReason = 'error') {
  return said([], { stopReason, errorMessage });
}
export function usage(input: number, output: number, cacheRead: number, cacheWrite: number, total: number) {
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total },
  };
}
export function start(toolCallId: string, toolName: string, args: unknown) {
  return { type: 'tool_execution_start', toolCallId, toolName, args };
}
export function finish(toolCallId: string, toolName: string, text: string, isError = false) {
  return {
    type: 'tool_execution_end',
    toolCallId,
    toolName,
    result: { content: [{ type: 'text', text }], details: {} },
    isError,
  };
}
/** One tool call, started and ended. */
export function call(toolName: string, args: unknown, text = 'ok', isError = false) {
  return [start('call_1', toolName, args), finish('call_1', toolName, text, isError)];
}

export const turnEnd = { type: 'turn_end', message: assistant([]), toolResults: [] };
export const agentEnd = { type: 'agent_end', messages: [] };
export const retryStart = (attempt: number, errorMessage: string) => ({
  type: 'auto_retry_start',
  attempt,
  maxAttempts: 3,
  delayMs: 2000 * 2 ** (attempt - 1),
  errorMessage,
});

export const events = eventsOf({ harness });
