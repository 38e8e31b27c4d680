/**
 * Which option of an ACP agent's `session/request_permission` answers each of the caller's answers (docs/library.md
 * "Approvals", docs/harnesses/acp.md "Approvals"): one row per agent, by option id, never "the first option of kind
 * X" (Qwen offers two `allow_once` options, one of which switches its mode; codex-acp's only reject aborts the turn;
 * Claude's adapter's "Always Allow" grants more than the call, for the session only). A scope the row has no option
 * for, or whose option the request does not offer, is one the agent cannot express: the answer is refused, never
 * widened.
 *
 * ACP has no field for a deny message and none for a rewritten input: neither reaches any agent.
 */
import { isObject } from '../../kernel/json.js';

/** A scope the caller may grant. */
export type AcpScope = 'once' | 'session' | 'always';

/** One agent's row. */
export interface ApprovalOptions {
  /** Stable id, cited by docs and warnings. */
  readonly rule: string;
  /** The presets (`acpAgents`) it is for. */
  readonly presets: readonly string[];
  /** The `agentInfo.name` values it is for, when the agent was started by command. */
  readonly names: readonly string[];
  /** The option ids granting each scope, any one the request offers (agents offer other ids for other tools). */
  readonly once: readonly string[];
  readonly session: readonly string[];
  readonly always: readonly string[];
  /** The option ids that deny the call (reject once: never a persistent `reject_always`). */
  readonly deny: readonly string[];
  /** Whether the agent ends the turn when the call is denied (measured); undefined: not measured. */
  readonly denyEndsTurn: boolean | undefined;
  /** What the row leaves out, and why. */
  readonly why: string;
  /** The version and how it was learnt. */
  readonly evidence: string;
}

const row = (options: ApprovalOptions) => options;

/** The rows, one per agent. */
export const approvalOptions: readonly ApprovalOptions[] = [
  row({
    rule: 'acp-approvals/claude',
    presets: ['claude', 'claude-code'],
    names: ['@zed-industries/claude-agent-acp', '@zed-industries/claude-code-acp'],
    once: ['allow'],
    // "Always Allow" applies Claude Code's suggestions for the session only, and more than the call: after it on
    // `touch kept.txt`, another command and a Write ran unasked; nothing was written to any settings file, the next
    // run asked again (measured). Neither a session grant of the call nor a kept rule: refused.
    session: [],
    always: [],
    // `plan` ("No, keep planning") is the reject of ExitPlanMode's request.
    deny: ['reject', 'plan'],
    denyEndsTurn: false,
    why:
      'allow_always keeps nothing past the session and grants more than the call within it (other commands, edits ' +
      "ran unasked); ExitPlanMode's allow options switch the mode (default, acceptEdits, bypassPermissions): refused",
    evidence:
      'claude-agent-acp 0.23.1: source (dist/acp-agent.js canUseTool); live: a deny goes on, once runs, ' +
      'allow_always as said',
  }),
  row({
    rule: 'acp-approvals/codex',
    presets: ['codex'],
    names: ['codex-acp'],
    once: ['approved'],
    session: [],
    always: [],
    // "No, provide feedback": Codex's abort, the turn ends cancelled.
    deny: ['abort'],
    denyEndsTurn: true,
    why: 'offers approved and abort only; a deny ends the turn cancelled (the run exits 1)',
    evidence: "codex-acp 0.16.0: the captures; live (a patch's request): abort ends the turn, exit 1; approved runs",
  }),
  row({
    rule: 'acp-approvals/copilot',
    presets: ['copilot'],
    names: ['Copilot'],
    once: ['allow_once'],
    session: ['allow_always'],
    always: [],
    deny: ['reject_once'],
    denyEndsTurn: true,
    why: '"Always allow" lasts the session: the same command later ran unasked; a deny ends the turn',
    evidence: 'Copilot 1.0.102: the captures; live: reject ends the turn, allow_always the same call unasked',
  }),
  row({
    rule: 'acp-approvals/opencode',
    presets: ['opencode', 'kilo'],
    names: ['OpenCode', 'Kilo'],
    once: ['once'],
    // "Always allow" adds the request's patterns in memory ("we don't save the permission ruleset to disk").
    session: ['always'],
    always: [],
    deny: ['reject'],
    denyEndsTurn: true,
    why: 'always is kept in memory, for the session; a deny ends the turn (OpenCode halts the session)',
    evidence: 'OpenCode 1.18.33, Kilo 7.7.7: the captures, source (permission/next.ts); live: both, as the row says',
  }),
  row({
    rule: 'acp-approvals/qwen',
    presets: ['qwen'],
    names: ['qwen-code'],
    // Never proceed_once_and_switch_to_default: also kind allow_once, it switches the session's mode.
    once: ['proceed_once'],
    session: [],
    // A command's rule written into the project's settings. Never proceed_always_user (the user's, every project),
    // nor an edit's proceed_always: it switches the session to auto-edit, every edit after it unasked.
    always: ['proceed_always_project'],
    deny: ['cancel'],
    denyEndsTurn: true,
    why:
      'no option grants the session for one call only; proceed_once_and_switch_to_default changes the mode, an ' +
      "edit's proceed_always switches the session to auto-edit: refused",
    evidence: 'Qwen Code 0.24.4: the captures, source (persistPermissionOutcome); live: cancel ends the turn',
  }),
  row({
    rule: 'acp-approvals/gemini',
    presets: ['gemini'],
    names: ['gemini-cli'],
    once: ['proceed_once'],
    session: ['proceed_always'],
    // proceed_always_and_save (offered only with security.enablePermanentToolApproval) writes a rule allowing every
    // command with the call's first word (`commandPrefix`) into ~/.gemini/policies/auto-saved.toml, for every project
    // of the user's (measured): far wider than the call, as Qwen's proceed_always_user would be. Refused.
    always: [],
    deny: ['cancel'],
    denyEndsTurn: false,
    why:
      "proceed_always_and_save keeps a rule for every command with the call's first word, in every project; " +
      'proceed_always_server and proceed_always_tool grant a whole MCP server or tool: refused',
    evidence:
      'Gemini CLI 0.61.0: the captures, source (acpSession.ts); live: cancel goes on, proceed_always unasked, ' +
      'proceed_always_and_save kept commandPrefix ["touch"] user-wide for the next run',
  }),
  row({
    rule: 'acp-approvals/droid',
    presets: ['droid'],
    names: ['@factory/cli'],
    once: ['proceed_once'],
    session: [],
    always: [],
    deny: ['cancel'],
    denyEndsTurn: undefined,
    why: 'proceed_always "Allow & auto-run low risk commands" approves other commands too: refused',
    evidence: 'Droid 0.225.2: the captures',
  }),
  row({
    rule: 'acp-approvals/goose',
    presets: ['goose'],
    names: ['goose'],
    once: ['allow_once'],
    session: [],
    // Kept in Goose's config directory.
    always: ['allow_always'],
    deny: ['reject_once'],
    denyEndsTurn: false,
    why: 'no session scope; reject_always would persist a refusal: never chosen',
    evidence: 'Goose: source (crates/goose-acp server.rs), not installed here',
  }),
];

/**
 * Any other agent: the one `allow_once` and the one `reject_once` option, when the request offers exactly one of
 * each (two of a kind cannot be told apart, as Qwen's show); nothing wider.
 */
export const unknownAgent = 'acp-approvals/other';

/** The row for an agent, by its preset, else by its `agentInfo.name`. */
export function optionsFor(preset: string | undefined, name: string | undefined): ApprovalOptions | undefined {
  return (
    approvalOptions.find((row) => preset !== undefined && row.presets.includes(preset)) ??
    approvalOptions.find((row) => name !== undefined && row.names.includes(name))
  );
}

/** A request's options as `{ optionId, kind }`, the malformed left out. */
function offered(options: unknown): { optionId: string; kind: unknown }[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((option) =>
    isObject(option) && typeof option.optionId === 'string' ? [{ optionId: option.optionId, kind: option.kind }] : [],
  );
}

/** What one request lets the caller answer: the option id per scope, and the deny option. */
export interface OfferedAnswers {
  readonly rule: string;
  readonly scopes: Partial<Record<AcpScope, string>>;
  readonly deny: string | undefined;
  readonly denyEndsTurn: boolean | undefined;
}

/** The answers a request offers, by the agent's row (or the unique options of an unknown agent). */
export function offeredAnswers(row: ApprovalOptions | undefined, options: unknown): OfferedAnswers {
  const present = offered(options);
  if (row === undefined) {
    const only = (kind: string) => {
      const of = present.filter((option) => option.kind === kind);
      return of.length === 1 ? of[0]!.optionId : undefined;
    };
    const once = only('allow_once');
    return {
      rule: unknownAgent,
      scopes: once === undefined ? {} : { once },
      deny: only('reject_once'),
      denyEndsTurn: undefined,
    };
  }
  const pick = (ids: readonly string[]) => ids.find((id) => present.some((option) => option.optionId === id));
  const scopes: Partial<Record<AcpScope, string>> = {};
  for (const scope of ['once', 'session', 'always'] as const) {
    const id = pick(row[scope]);
    if (id !== undefined) scopes[scope] = id;
  }
  return { rule: row.rule, scopes, deny: pick(row.deny), denyEndsTurn: row.denyEndsTurn };
}
