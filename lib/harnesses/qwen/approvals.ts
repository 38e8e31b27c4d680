/**
 * Qwen Code's answers to `can_use_tool` (its copy of Claude Code's control protocol; docs/library.md "Approvals"),
 * measured on 0.24.4: an allow runs the call once, anything else cancels it with the message. It keeps no grant (no
 * session, no rule), has no way to end the turn at a denial, and runs a shell call's own input whatever `updatedInput`
 * says (measured): a rewritten input is refused, not sent.
 */
import type { AnswerTable, Decision } from '../../kernel/approvals.js';
import { isObject } from '../../kernel/json.js';
import type { ControlDialect } from '../claude-code/control.js';
import { tools } from './tools.js';

export const answers = {
  once: { rule: 'qwen.allow-once', does: '`behavior: "allow"` with the input: the call runs once' },
  deny: { rule: 'qwen.deny', does: '`behavior: "deny"`: the call is cancelled and the turn goes on' },
  message: { rule: 'qwen.deny-message', does: '`message`: what the model reads of the cancelled call' },
} as const satisfies AnswerTable;

/** What a deny without a message tells the model. */
const DENIED = 'The caller denied this tool call.';

export const dialect: ControlDialect = {
  harness: { name: 'qwen', tools },
  answers,
  scopes: () => ['once'],
  // Without it Qwen does not ask (its SDK mode); its own wait is then its longest, 600 s: the caller's timeout rules.
  initialize: { subtype: 'initialize', hooks: null, timeout: { canUseTool: 600_000 } },
  response(decision: Decision, request) {
    if ('deny' in decision) return { behavior: 'deny', message: decision.message ?? DENIED };
    return { behavior: 'allow', updatedInput: isObject(request.input) ? request.input : {} };
  },
};
