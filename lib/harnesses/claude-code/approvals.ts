/**
 * Claude Code's answers to `can_use_tool` (docs/library.md "Approvals"), measured on 2.1.332 and the live suite's
 * version: every answer the caller can give has a row, and `session` and `always` are offered only where the request's
 * `permission_suggestions` hold what they become.
 */
import type { AnswerTable, Decision, PermissionScope } from '../../kernel/approvals.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import type { ControlDialect } from './control.js';
import { tools } from './tools.js';

export const answers = {
  once: { rule: 'claude.allow-once', does: '`behavior: "allow"` with the input: the call runs' },
  session: {
    rule: 'claude.allow-session',
    does:
      "`updatedPermissions`: the request's suggested rules with destination `session` (the same call runs unasked " +
      "for the rest of the session); without a rule suggestion, the suggestions Claude's own prompt offers for the " +
      'session (an edit: mode `acceptEdits`)',
  },
  always: {
    rule: 'claude.allow-always',
    does:
      "`updatedPermissions`: the request's suggested rules as suggested (`localSettings`: " +
      '.claude/settings.local.json)',
  },
  input: { rule: 'claude.rewrite', does: '`updatedInput`: the rewritten input runs instead' },
  deny: {
    rule: 'claude.deny',
    does: '`behavior: "deny"`: the call fails (`is_error` tool_result) and the turn goes on',
  },
  message: { rule: 'claude.deny-message', does: "`message`: the tool_result's text, which the model reads" },
  stop: {
    rule: 'claude.stop',
    does:
      "`interrupt: true`: the turn ends (`result` `error_during_execution`); the model gets Claude's stock text, " +
      'not the message',
  },
} as const satisfies AnswerTable;

/** What a deny without a message tells the model (Claude's answer requires one). */
const DENIED = 'The caller denied this tool call.';

type Suggestion = JsonObject & { destination?: unknown };

function suggestions(request: JsonObject): Suggestion[] {
  return Array.isArray(request.permission_suggestions) ? request.permission_suggestions.filter(isObject) : [];
}

/** The suggested rules moved to the session; else what was suggested for the session. */
function sessionGrant(request: JsonObject): Suggestion[] {
  const all = suggestions(request);
  const rules = all.filter((suggestion) => suggestion.type === 'addRules');
  if (rules.length > 0) return rules.map((rule) => ({ ...rule, destination: 'session' }));
  return all.filter((suggestion) => suggestion.destination === 'session');
}

/** The suggested rules kept past the session. */
function keptRules(request: JsonObject): Suggestion[] {
  return suggestions(request).filter((s) => s.type === 'addRules' && s.destination !== 'session');
}

export const dialect: ControlDialect = {
  harness: { name: 'claude-code', tools },
  answers,
  scopes(request) {
    const scopes: PermissionScope[] = ['once'];
    if (sessionGrant(request).length > 0) scopes.push('session');
    if (keptRules(request).length > 0) scopes.push('always');
    return scopes;
  },
  response(decision: Decision, request) {
    if ('deny' in decision)
      return { behavior: 'deny', message: decision.message ?? DENIED, ...(decision.stop ? { interrupt: true } : {}) };
    const updatedInput = decision.input ?? (isObject(request.input) ? request.input : {});
    const granted =
      decision.allow === 'session' ? sessionGrant(request) : decision.allow === 'always' ? keptRules(request) : [];
    return { behavior: 'allow', updatedInput, ...(granted.length > 0 ? { updatedPermissions: granted } : {}) };
  },
};
