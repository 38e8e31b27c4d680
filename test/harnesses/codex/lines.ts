/**
 * Lines in Codex's real shapes (docs/harnesses/codex.md), authored for the rows no real capture covers and to pin
 * each rule alone, and the run that reads them: what the rules tests (records, commands, items) share.
 */
import { eventsOf } from '../../helpers.js';

export const harness = 'codex';
export const cwd = '/ws';
export const thread = { type: 'thread.started', thread_id: 'thread-1' };
export const turn = { type: 'turn.started' };

export function started(item: Record<string, unknown>) {
  return { type: 'item.started', item };
}
export function updated(item: Record<string, unknown>) {
  return { type: 'item.updated', item };
}
export function completed(item: Record<string, unknown>) {
  return { type: 'item.completed', item };
}
/** A command_execution item as 0.169 prints it. */
export function command(
  id: string,
  commandLine: string,
  status: string,
  exit_code: number | null,
  aggregated_output = '',
) {
  return { id, type: 'command_execution', command: commandLine, aggregated_output, exit_code, status };
}
export function usage(
  input_tokens: number,
  cached_input_tokens: number,
  output_tokens: number,
  reasoning_output_tokens: number,
) {
  return {
    type: 'turn.completed',
    usage: { input_tokens, cached_input_tokens, cache_write_input_tokens: 0, output_tokens, reasoning_output_tokens },
  };
}

export const events = eventsOf({ harness, cwd });
