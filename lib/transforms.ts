/**
 * The pipeline's stages one by one, for a pipeline of your own (createNormalizer is them in order), with what
 * flows between them.
 *
 * @module harness-events/stages
 */
export {
  splitLines,
  InputBytes,
  LineTooLong,
  LinePart,
  EncodingNote,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_STREAM_LINES_ABOVE,
  type Line,
  type SplitLinesOptions,
} from './transforms/split-lines.js';
export { parseJson, NotJson, BLANK, type Parsed, type ParseJsonOptions, type Cut } from './transforms/parse-json.js';
export {
  correlate,
  DEFAULT_MAX_PENDING_TOOLS,
  DEFAULT_MAX_PENDING_BYTES,
  DEFAULT_MAX_SPAN_BYTES,
  type Correlated,
  type CorrelateOptions,
} from './transforms/correlate.js';
export { classify, classifyToolCall } from './transforms/classify.js';
export {
  validate,
  violationOf,
  metricsViolationOf,
  SchemaViolationError,
  type ValidateOptions,
} from './transforms/validate.js';
export { serialize } from './transforms/serialize.js';
export { MetricsNote } from './kernel/metrics.js';
export { compose, type Stage, type StageFactory, type StageDefinition, type Sink } from './kernel/stage.js';
