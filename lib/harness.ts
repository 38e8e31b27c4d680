/**
 * What a harness of your own is built from (docs/custom-harness.md, examples/custom-harness.ts): the
 * record table, the tool table and its rules, the helpers correlators share.
 *
 * @module harness-events/harness
 */
export type {
  Harness,
  Correlator,
  RunContext,
  Limits,
  ToolCallFields,
  ToolRule,
  ToolTable,
  HarnessClient,
  ClientContext,
  LaunchOptions,
  Signature,
  DetectingHarness,
  Companion,
  CompanionJoin,
} from './kernel/harness.js';
export type {
  SessionFormat,
  SessionLocation,
  RecordFacts,
  SessionEnv,
  SessionStore,
  StoreFacts,
  StoreRecord,
} from './kernel/session.js';
export type { FailureRow, FailureRows } from './kernel/failures.js';
export type { Refusal } from './kernel/permission-denied.js';
export {
  recordTable,
  recordRows,
  sharedRecords,
  ruleNames,
  type RecordRow,
  type RecordRows,
  type RowSpec,
  type RecordRule,
  type RecordHandlers,
} from './kernel/record-table.js';
export { TextSpan, type SpanKind, type TextSpanOptions } from './kernel/text-span.js';
export { BoundedMap } from './kernel/bounded-map.js';
export {
  toolTable,
  rule,
  read,
  write,
  search,
  list,
  shell,
  silent,
  namedSkill,
  skillEvent,
  stringField,
  successOf,
  offsetLimitRange,
  type FileFields,
  type ShellOptions,
  type LineRange,
} from './kernel/tool-rules.js';
export { ToolCall } from './kernel/tool-call.js';
export {
  harnessTime,
  type RunTrace,
  type RunTotal,
  type CallStart,
  type AgentStart,
  type ModelCall,
  type EventIds,
  type HarnessTime,
  type PermissionRecord,
} from './kernel/trace.js';
export { addTokens, amount, tokenCount, tokensOf, createMetrics } from './kernel/metrics.js';
export { isObject, type JsonObject } from './kernel/json.js';
export { resolvePath } from './kernel/paths.js';
export {
  classifyShellCommand,
  shellOperations,
  unwrapShellCommand,
  type FileOperation,
  type ShellOperations,
} from './kernel/shell/index.js';
