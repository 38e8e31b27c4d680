/**
 * `codex exec` says a permission refused a call only on stderr and in the call's output, which the
 * rollout keeps (docs/harnesses/codex.md "Refused calls"): a rejected patch leaves no item on stdout
 * at all, a command that asked for escalation under the `never` approval policy neither. Their
 * router's error lines become `permission_denied` warnings under spawnHarness; the same text as a
 * call's output does in a rollout (raw-calls.ts).
 */
import type { Refusal } from '../../kernel/permission-denied.js';

const ROUTER_ERROR = /\bcodex_core::tools::router: error=(.*)$/;

/** The refusal a stderr line reports, if it reports one. */
export function stderrRefusal(line: string): Refusal | undefined {
  const error = ROUTER_ERROR.exec(line)?.[1];
  return error === undefined ? undefined : refusalOf(error);
}

/** The refusal a router error (the model's output for the call) states, if it states one. */
export function refusalOf(error: string): Refusal | undefined {
  if (error.startsWith('patch rejected:')) return { tool: 'apply_patch', reason: error };
  if (error.startsWith('approval policy is Never; reject command')) return { tool: 'exec_command', reason: error };
  return undefined;
}
