/**
 * A tool call a permission setting refused (docs/contract.md "Refused tool calls"): the call keeps
 * its own event (is_success false); this adds the warning that says a permission refused it, and
 * counts it in the run's metrics, so that a consumer can tell an agent that finished from one the
 * permission policy stopped.
 */
import type { EventBody, RunMetrics } from './events.js';

/** Where a refusal goes: a run's events and metrics (a correlator's RunContext, spawnHarness's own). */
interface RefusalSink {
  emit(event: EventBody): void;
  readonly metrics: RunMetrics;
}

export interface Refusal {
  /** The tool's name as the harness gives it (`Bash`, `write_file`, `shell`). */
  tool: string;
  /** Why, in the harness's words. */
  reason: string;
  /** The harness ended the run at this refusal (it does not go on without the call). */
  stopped?: boolean;
}

export function permissionDenied(run: RefusalSink, refusal: Refusal): void {
  const reason = refusal.reason.trim() || 'no reason given';
  run.emit({ type: 'warning', code: 'permission_denied', message: `Permission denied: ${refusal.tool}: ${reason}` });
  run.metrics.permission_denials = (run.metrics.permission_denials ?? 0) + 1;
  if (refusal.stopped) run.metrics.stopped_by_permission = true;
}
