/**
 * Whether a refusal ended the turn (docs/contract.md "Refused tool calls": a run the harness ended because of one
 * has `stopped_by_permission`). ACP says no more than that the turn ended; what tells an agent that stopped at the
 * refused call from one that went on is what came between the refusal and the turn's answer: a new tool call, or a
 * message of the model's, means it went on; nothing, or only the agent's own notice that it cancelled, means it
 * stopped (measured on the live `defaults` runs, docs/harnesses/acp.md "Refused calls").
 */
import { isObject, type JsonObject } from '../../kernel/json.js';

/** The notices agents write themselves when they end a turn at a rejected call: not the model speaking. */
const cancelNotices: readonly { readonly text: string; readonly agent: string }[] = [
  { text: 'Info: Operation cancelled by user', agent: 'Copilot 1.0.102, after its reject_once' },
];

/** Text past this length is no notice: the watch keeps no more of it. */
const LONGEST_NOTICE = Math.max(...cancelNotices.map((notice) => notice.text.length));

interface RefusalWatch {
  /** The library rejected the permission request of this tool call. */
  refused(toolCallId: unknown): void;
  /** A `session/update` notification's `update` the agent sent. */
  update(update: unknown): void;
  /** At the turn's answer: whether the turn ended at the last refusal; then watches the next turn afresh. */
  stopped(): boolean;
}

export function refusalWatch(): RefusalWatch {
  let refusedCall: unknown;
  let pending = false;
  let said = '';
  const wentOn = () => {
    pending = false;
    said = '';
  };
  return {
    refused(toolCallId) {
      pending = true;
      refusedCall = toolCallId;
      said = '';
    },
    update(update) {
      if (!pending || !isObject(update)) return;
      const kind = update.sessionUpdate;
      if (kind === 'tool_call' && update.toolCallId !== refusedCall) return wentOn();
      if (kind !== 'agent_message_chunk') return;
      const content = (update as JsonObject).content;
      const text = isObject(content) && typeof content.text === 'string' ? content.text : '';
      // Runs of white space as one space: what is kept stays within a notice's length, however the chunks fall.
      said = (said + text).replace(/\s+/g, ' ').trimStart();
      if (said.trimEnd().length > LONGEST_NOTICE) wentOn();
    },
    stopped() {
      const words = said.trimEnd();
      const stopped = pending && (words === '' || cancelNotices.some((notice) => notice.text === words));
      wentOn();
      return stopped;
    },
  };
}
