export { createNormalizer, normalize, type NormalizeOptions, type JsonlOptions, type Normalizer } from './normalizer.js';
export { spawnHarness, shellExitCode, type SpawnHarnessOptions, type HarnessRun, type RunResult } from './spawn.js';
export { createRunStream, type RunStream, type SystemStage, type StageOptions, type ProbeOptions } from './run-stream.js';
export type * from './events.js';
export type { Harness, Correlator, RunContext, Limits, ToolCallFields, ToolRule, ToolTable } from './harness.js';
export { commandLines, argsOf, type CommandLine, type CommandLineInput } from '../harnesses/command-lines.js';
export { harnesses, harnessNamed, isHarnessName, UnknownHarnessError, type HarnessName, type HarnessOption } from '../harnesses/index.js';
export { splitLines, LineTooLong, LinePart, EncodingNote, DEFAULT_MAX_LINE_BYTES, DEFAULT_STREAM_LINES_ABOVE, type Line, type SplitLinesOptions } from '../transforms/split-lines.js';
export { parseJson, NotJson, BLANK, type Parsed, type ParseJsonOptions, type Cut } from '../transforms/parse-json.js';
export { correlate, DEFAULT_MAX_PENDING_TOOLS, DEFAULT_MAX_SPAN_BYTES, type Correlated, type CorrelateOptions } from '../transforms/correlate.js';
export { classify, classifyToolCall } from '../transforms/classify.js';
export { validate, violationOf, metricsViolationOf, SchemaViolationError, type ValidateOptions } from '../transforms/validate.js';
export { serialize } from '../transforms/serialize.js';
export { classifyShellCommand, shellOperations, unwrapShellCommand, type FileOperation, type ShellOperations } from './shell/index.js';
export { ToolCall } from './tool-call.js';
export { readEvents, type ReadEventsOptions } from './read-events.js';
export { toJetStream, publishTo, JetStreamSink, JetStreamPublishError, type JetStreamSinkOptions } from './jetstream/sink.js';
export { fromJetStream, type JetStreamSource, type JetStreamSourceOptions, type JetStreamRecord } from './jetstream/source.js';
export { DEFAULT_STREAM, DEFAULT_PREFIX, streamDefaults, subjectOf, filterSubject, type SubjectFilter, type MessageKind } from './jetstream/subjects.js';

// What a harness of your own is built from (README "A harness of your own").
export { recordTable, sharedRecords, ruleNames, type RecordRow, type RecordRows, type RecordRule, type RecordHandlers } from './record-table.js';
export { TextSpan, type SpanKind, type TextSpanOptions } from './text-span.js';
export { BoundedMap } from './bounded-map.js';
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
} from './tool-rules.js';
export { addTokens, amount, tokenCount, tokensOf, createMetrics } from './metrics.js';
export { isObject, type JsonObject } from './json.js';
export { resolvePath } from './paths.js';
export { acpAgents, type AcpAgent } from '../harnesses/acp/agents.js';
export type { AcpOptions, AcpPermissions } from './acp-client.js';
