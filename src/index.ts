export {
  createNormalizer,
  normalize,
  type NormalizeOptions,
  type JsonlOptions,
  type Normalizer,
} from './runtime/normalizer.js';
export {
  spawnHarness,
  shellExitCode,
  type SpawnHarnessOptions,
  type HarnessRun,
  type RunResult,
} from './runtime/spawn.js';
export {
  createRunStream,
  type RunStream,
  type SystemStage,
  type StageOptions,
  type ProbeOptions,
} from './runtime/run-stream.js';
export type * from './kernel/events.js';
export type { Harness, Correlator, RunContext, Limits, ToolCallFields, ToolRule, ToolTable } from './kernel/harness.js';
export { commandLines, argsOf, type CommandLine, type CommandLineInput } from './runtime/command-lines.js';
export {
  harnesses,
  harnessNamed,
  isHarnessName,
  UnknownHarnessError,
  type HarnessName,
  type HarnessOption,
} from './runtime/registry.js';
export {
  splitLines,
  LineTooLong,
  LinePart,
  EncodingNote,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_STREAM_LINES_ABOVE,
  type Line,
  type SplitLinesOptions,
} from './stages/split-lines.js';
export { parseJson, NotJson, BLANK, type Parsed, type ParseJsonOptions, type Cut } from './stages/parse-json.js';
export {
  correlate,
  DEFAULT_MAX_PENDING_TOOLS,
  DEFAULT_MAX_PENDING_BYTES,
  DEFAULT_MAX_SPAN_BYTES,
  type Correlated,
  type CorrelateOptions,
} from './stages/correlate.js';
export { classify, classifyToolCall } from './stages/classify.js';
export {
  validate,
  violationOf,
  metricsViolationOf,
  SchemaViolationError,
  type ValidateOptions,
} from './stages/validate.js';
export { serialize } from './stages/serialize.js';
export {
  classifyShellCommand,
  shellOperations,
  unwrapShellCommand,
  type FileOperation,
  type ShellOperations,
} from './kernel/shell/index.js';
export { ToolCall } from './kernel/tool-call.js';
export { readEvents, type ReadEventsOptions } from './runtime/read-events.js';
export {
  toJetStream,
  publishTo,
  JetStreamSink,
  JetStreamPublishError,
  type JetStreamSinkOptions,
} from './interfaces/jetstream/sink.js';
export {
  fromJetStream,
  type JetStreamSource,
  type JetStreamSourceOptions,
  type JetStreamRecord,
} from './interfaces/jetstream/source.js';
export {
  DEFAULT_STREAM,
  DEFAULT_PREFIX,
  streamDefaults,
  subjectOf,
  filterSubject,
  type SubjectFilter,
  type MessageKind,
} from './interfaces/jetstream/subjects.js';

// What a harness of your own is built from (README "A harness of your own").
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
export { addTokens, amount, tokenCount, tokensOf, createMetrics } from './kernel/metrics.js';
export { isObject, type JsonObject } from './kernel/json.js';
export { resolvePath } from './kernel/paths.js';
export { acpAgents, type AcpAgent } from './harnesses/acp/agents.js';
export type { AcpOptions, AcpPermissions } from './harnesses/acp/client.js';
