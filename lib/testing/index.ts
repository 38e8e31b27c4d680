/**
 * harness-events/testing: a scripted model server for deterministic agent runs without a model.
 * Point an agent CLI at `server.url` (each CLI's own base-URL setting) and it gets the turns of
 * the script, in the wire protocol it speaks.
 *
 * @module harness-events/testing
 */
export { startModelServer, type ModelServer, type ModelServerOptions, type LoggedRequest } from './model-server.js';
export { scriptFor, type Script, type Conversation, type Match } from './script.js';
export {
  DEFAULT_USAGE,
  type Turn,
  type ToolUse,
  type Usage,
  type Failure,
  type HttpFailure,
  type RequestView,
} from './protocols/turn.js';
export type { ProtocolName } from './protocols/protocol.js';
