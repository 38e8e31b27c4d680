/**
 * `codex exec` says a permission refused a call only on stderr (docs/harnesses/codex.md "Refused
 * calls"): a rejected patch leaves no item on stdout at all, a command that asked for escalation
 * under the `never` approval policy neither. Their router's error lines become `permission_denied`
 * warnings under spawnHarness.
 */
import type { Refusal } from '../../kernel/permission-denied.js';

const ROUTER_ERROR = /\bcodex_core::tools::router: error=(.*)$/;

/** The refusal a stderr line reports, if it reports one. */
export function stderrRefusal(line: string): Refusal | undefined {
  const error = ROUTER_ERROR.exec(line)?.[1];
  if (error === undefined) return undefined;
  if (error.startsWith('patch rejected:')) return { tool: 'apply_patch', reason: error };
  if (error.startsWith('approval policy is Never; reject command')) return { tool: 'exec_command', reason: error };
  return undefined;
}
