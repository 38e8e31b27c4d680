/**
 * The JetStream sink and source. The NATS client is an optional peer dependency: importing this without it fails at
 * once, naming the packages to install; it is loaded at the first connection (lib/interfaces/peers.ts).
 *
 * @module harness-events/jetstream
 */
// First: without its packages, the import fails here with one line, before anything loads them.
import './check-peers.js';
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
export { JetStreamConnectError, type ConnectOptions } from './connection.js';
