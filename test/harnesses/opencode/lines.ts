/**
 * Lines in OpenCode's real shapes (docs/harnesses/opencode.md), authored for the rows no real capture covers and
 * to pin each rule alone, and the run that reads them: what the rules tests (records, tool-use, tools) share.
 */
import { eventsOf } from '../../helpers.js';

export const harness = 'opencode';
export const sessionID = 'ses_1';
export const cwd = '/ws';

/** A record as `run.ts` writes it: type, timestamp, the root session id, then its payload. */
export function record<P extends Record<string, unknown>>(type: string, payload?: P) {
  return { type, timestamp: 1796004713924, sessionID, ...payload } as {
    type: string;
    timestamp: number;
    sessionID: string;
  } & P;
}
export function textRecord(type: 'text' | 'reasoning', text: unknown) {
  return record(type, {
    part: { id: `prt_${type}`, messageID: 'msg_1', sessionID, type, text, time: { start: 1, end: 2 } },
  });
}
export function stepFinish(tokens: unknown, cost: unknown = 0) {
  return record('step_finish', {
    part: { id: 'prt_sf', reason: 'stop', messageID: 'msg_1', sessionID, type: 'step-finish', tokens, cost },
  });
}
/** A finished tool part; `state` overrides the completed state's fields. */
export function toolPart(tool: string, input: unknown, state: Record<string, unknown> = {}, id = `prt_${tool}`) {
  return {
    type: 'tool',
    tool,
    callID: `call_${tool}`,
    state: {
      status: 'completed',
      input,
      output: '',
      title: '',
      metadata: { truncated: false },
      time: { start: 1, end: 2 },
      ...state,
    },
    id,
    sessionID,
    messageID: 'msg_1',
  };
}
export function toolUse(tool: string, input: unknown, state: Record<string, unknown> = {}, id?: string) {
  return record('tool_use', { part: toolPart(tool, input, state, id) });
}

export const events = eventsOf({ harness, cwd });
