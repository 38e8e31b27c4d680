/**
 * The JetStream sink and source. The NATS client is an optional peer dependency, loaded at the first connection
 * (lib/interfaces/peers.ts).
 *
 * @module harness-events/jetstream
 */
export { toJetStream, publishTo, JetStreamSink, JetStreamPublishError } from './sink.js';
export type { JetStreamSinkOptions } from './options.js';
export { fromJetStream, type JetStreamSource, type JetStreamSourceOptions, type JetStreamRecord } from './source.js';
export {
  DEFAULT_STREAM,
  DEFAULT_PREFIX,
  streamDefaults,
  subjectOf,
  filterSubject,
  type SubjectFilter,
  type MessageKind,
} from './subjects.js';
export type { ConnectOptions } from './connection.js';
