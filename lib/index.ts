/**
 * The root entry: what a user needs to normalize a stream or run an agent. The pipeline's stages are
 * `harness-events/stages`, a harness's building blocks `harness-events/harness`, the extras `/jetstream`, `/view`,
 * `/report`, the scripted model `/testing` (docs/library.md); test/exports.test.ts lists every export.
 *
 * @module harness-events
 */
export {
  createNormalizer,
  normalize,
  type NormalizeOptions,
  type JsonlOptions,
  type TraceOptions,
  type Normalizer,
} from './runtime/normalizer.js';
export type { TraceRecord, TraceRecordOf, TimeSource } from './kernel/trace.js';
export type { TraceKind } from './kernel/trace-contract.js';
export { spawnHarness, shellExitCode, type HarnessRun } from './runtime/run/spawn.js';
export type { RunItem } from './runtime/run/output.js';
export {
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_BUFFER_BYTES,
  type SpawnHarnessOptions,
  type RunOptions,
  type AcpRunOptions,
  type CliRunOptions,
} from './runtime/run/spawn-options.js';
export {
  HarnessRunError,
  failures,
  failureCodes,
  STDERR_TAIL_BYTES,
  type RunResult,
  type RunFailure,
  type RunOutcome,
} from './runtime/run/errors.js';
export { permissionModes, isPermissions, type Permissions } from './kernel/permissions.js';
export {
  permissionScopes,
  type PermissionScope,
  type PermissionRequest,
  type PermissionAnswer,
  type PermissionContext,
  type OnPermission,
  type AnswerTable,
  type AnswerRow,
  type AnswerKey,
} from './kernel/approvals.js';
export type { ApprovalCounts } from './kernel/asker.js';
export {
  createRunStream,
  type RunStream,
  type SystemStage,
  type StageOptions,
  type ProbeOptions,
} from './runtime/run/run-stream.js';
export {
  findSessions,
  readSession,
  type SessionEntry,
  type FindSessionsOptions,
  type ReadSessionOptions,
} from './runtime/sessions/sessions.js';
export { followSession, type FollowSessionOptions } from './runtime/sessions/follow.js';
export { accountUsage, type AccountUsageOptions, type UsageReport, type UsageSource } from './runtime/usage/usage.js';
export { USAGE_ROW_VERSION, type UsageRow, type TokenTotals, type AccountOptions } from './runtime/usage/account.js';
export type { UsageCall, UsageCost } from './runtime/usage/call.js';
export { usageGroups, type UsageGroup } from './runtime/usage/group.js';
export type { UsageSessions } from './runtime/usage/sources.js';
export type { UsageRecord } from './runtime/usage/calls.js';
export { readEvents, type ReadEventsOptions, type EventReader } from './runtime/read-events.js';
export type * from './kernel/events.js';
export type { Harness } from './kernel/harness.js';
export { argsOf, PERMISSIONS, type CommandLine, type CommandLineInput } from './kernel/command-line.js';
export {
  commandLines,
  sessionFormats,
  harnesses,
  harnessFrom,
  harnessNamed,
  isHarnessName,
  UnknownHarnessError,
  type HarnessName,
  type HarnessOption,
} from './runtime/registry.js';
export {
  loadPriceTable,
  type PriceTable,
  type PricedCall,
  type ClassPrices,
  type LoadPriceTableOptions,
} from './runtime/usage/prices.js';
export { costOf, type Cost, type CostInput } from './runtime/usage/cost.js';
export type { Budget, Spent } from './runtime/run/budget.js';
export { SchemaViolationError } from './transforms/validate.js';
export { acpAgents, type AcpAgent } from './harnesses/acp/agents.js';
export type { AcpOptions, AcpPermissions } from './harnesses/acp/client.js';
