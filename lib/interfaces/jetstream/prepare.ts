/**
 * What a sink checks before it publishes anything: the stream exists (created with
 * `streamDefaults` when missing), it takes the sink's subjects, and it holds nothing of the run.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import { isStreamNotFound, nats } from './connection.js';
import type { SinkSettings } from './options.js';
import { nanosToMs, streamDefaults, subjectOf, type MessageKind } from './subjects.js';

interface PreparedStream {
  client: JetStreamClient;
  /** The stream's de-duplication window; 0 when it has none. */
  duplicateWindowMs: number;
}

export async function prepareStream(connection: NatsConnection, settings: SinkSettings): Promise<PreparedStream> {
  const { stream, prefix, run } = settings;
  const [, { jetstream, jetstreamManager }] = await nats();
  const manager = await jetstreamManager(connection);
  // The harness may not be known before the first event: any token shows whether the stream takes the prefix.
  const harness = typeof settings.harness === 'string' ? settings.harness : 'auto';
  const sample = subjectOf(prefix, harness, run, 'agent');
  let info;
  try {
    info = await manager.streams.info(stream);
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    info = await manager.streams.add(streamDefaults(stream, prefix));
  }
  const owner = await manager.streams.find(sample).catch(() => undefined);
  if (owner !== stream) {
    throw new Error(
      `stream ${stream} does not take subject ${sample}${owner ? ` (stream ${owner} does)` : ''}: add ` +
        `"${prefix}.>" to its subjects or choose another stream`,
    );
  }
  await refuseReusedRun(manager, settings);
  return {
    client: jetstream(connection, { timeout: settings.ackTimeoutMs }),
    duplicateWindowMs: nanosToMs(info.config.duplicate_window ?? 0),
  };
}

/**
 * A run id the stream already holds is refused: within the de-duplication window the server would drop this run's
 * first events as duplicates of the other's (a re-run CI job keeps its $GITHUB_RUN_ID), and after it the two runs
 * would read back as one.
 */
async function refuseReusedRun(manager: JetStreamManager, { prefix, run, stream }: SinkSettings): Promise<void> {
  const subjects = subjectOf(prefix, '*', run, '>' as MessageKind);
  const held = await manager.streams.info(stream, { subjects_filter: subjects });
  const count = Object.values(held.state.subjects ?? {}).reduce((sum, n) => sum + n, 0);
  if (count > 0)
    throw new Error(
      `run ${run} is already in JetStream stream ${stream} (${count} messages on ${subjects}): ` +
        'a run id names one publication; give another --run (or none, for a new UUID)',
    );
}
