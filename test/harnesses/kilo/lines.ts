/**
 * Lines in Kilo 7.7.7's real shapes (docs/harnesses/kilo.md), authored for the rows no capture covers and to pin
 * each rule alone, and the run that reads them: what the rules tests (records, tools) share. Where kilo.md says
 * "as OpenCode", these tests check that Kilo's table does what opencode.md says (test/harnesses/opencode/ covers
 * OpenCode's own rows in depth).
 */
import { eventsOf } from '../../helpers.js';

export const harness = 'kilo';
export const sessionID = 'ses_dd0c2eeb1ffeZ5FfHcY5WHDlD0';
export const cwd = '/ws';

/** A record as Kilo's `run` writes it: type, timestamp, the root session id, then its payload. */
export function record<P extends Record<string, unknown>>(type: string, payload?: P) {
  return { type, timestamp: 1796088870219, sessionID, ...payload } as {
    type: string;
    timestamp: number;
    sessionID: string;
  } & P;
}
export function stepFinish(tokens: unknown, cost: unknown, extra: Record<string, unknown> = {}) {
  return record('step_finish', {
    part: {
      id: 'prt_sf',
      sessionID,
      messageID: 'msg_1',
      type: 'step-finish',
      reason: 'stop',
      snapshot: 'abc',
      metrics: { generation: 51.02, source: 'computed' },
      time: { start: 1, end: 2, elapsed: 1 },
      cost,
      tokens,
      ...extra,
    },
  });
}
export function toolUse(tool: string, input: unknown, state: Record<string, unknown> = {}, id = `prt_${tool}`) {
  return record('tool_use', {
    part: {
      id,
      sessionID,
      messageID: 'msg_1',
      type: 'tool',
      callID: `call_${id}`,
      tool,
      state: {
        status: 'completed',
        input,
        output: '',
        title: '',
        metadata: { truncated: false },
        time: { start: 1, end: 2 },
        ...state,
      },
    },
  });
}

export const events = eventsOf({ harness, cwd });
