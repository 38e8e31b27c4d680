/**
 * The command line's JetStream parts: `--publish` on `run` and `normalize` (the events go to
 * JetStream as well as to stdout), `--from` on `view` and `replay` (replay.ts), which read
 * stored events.
 */
import { Transform, type Duplex, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from './usage-error.js';
import type { RunMetrics } from '../../kernel/events.js';
import { publishTo, toJetStream } from '../jetstream/sink.js';
import { fromJetStream, type JetStreamSource } from '../jetstream/source.js';
import { say } from './output.js';

/** The options `run` and `normalize` take for publishing. */
export const publishFlags = {
  publish: { type: 'string' },
  stream: { type: 'string' },
  run: { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

/** The options that read stored events (with --stream and --run): `view` and `replay`. */
export const fromFlags = {
  from: { type: 'string' },
  since: { type: 'string' },
  follow: { type: 'boolean' },
} as const;

interface PublishValues {
  publish?: string;
  stream?: string;
  run?: string;
  quiet?: boolean;
}

interface FromValues {
  from?: string;
  stream?: string;
  run?: string;
  since?: string;
  follow?: boolean;
}

/**
 * What follows the events of `run`/`normalize`: with --publish, a stage that publishes each
 * event to JetStream (the run's metrics as its final message), then `print`, or nothing with
 * --quiet; without, `print` alone. The sink starts connecting now.
 */
export function publishing(
  values: PublishValues,
  harness: string,
  metrics: () => RunMetrics,
): (print: Duplex[]) => Duplex[] {
  // With auto the subjects name the harness detected, which the metrics know by the first event.
  const subjectHarness = harness === 'auto' ? () => metrics().harness : harness;
  if (values.publish === undefined) {
    refuseStray(values, ['stream', 'run', 'quiet'], '--publish');
    return (print) => print;
  }
  const servers = natsServers('--publish', values.publish);
  const sink = asUsageError(() =>
    toJetStream({ servers, harness: subjectHarness, run: values.run, stream: values.stream, metrics }),
  );
  say(
    `publishing run ${sink.run} to ${values.publish}, stream ${sink.stream}, subjects ` +
      `${sink.prefix}.${harness === 'auto' ? '<harness>' : harness}.${sink.run}.<type>`,
  );
  const tee = publishTo(sink);
  return (print) => [tee, ...(values.quiet ? [dropAll()] : print)];
}

/** For `view`: the stored events --from names, or undefined without --from (then FILE is read). */
export function storedEvents(values: FromValues, file: string | undefined): JetStreamSource | undefined {
  if (values.from === undefined) {
    refuseStray(values, ['stream', 'run', ...(Object.keys(fromFlags) as (keyof FromValues)[])], '--from');
    return undefined;
  }
  if (file !== undefined) throw new UsageError(`view reads --from or a file, not both (got ${file})`);
  return sourceOf(values, values.from, 'events');
}

/** The stored events (or, for replay, records with the metrics) that --from and its options name. */
export function sourceOf(
  values: FromValues,
  from: string,
  output: 'events' | 'records',
  harness?: string,
): JetStreamSource {
  if (values.since !== undefined && Number.isNaN(Date.parse(values.since)))
    throw new UsageError(`--since takes a date and time, e.g. 2026-11-30T12:00:00Z, got "${values.since}"`);
  const servers = natsServers('--from', from);
  return asUsageError(() =>
    fromJetStream({
      servers,
      stream: values.stream,
      filter: { run: values.run, harness },
      deliver: values.since === undefined ? 'all' : { since: values.since },
      follow: values.follow,
      output,
      giveUpAfterMs: 10_000,
    }),
  );
}

/**
 * stored events -> stages -> stdout. Resolves to the exit code: 0 at the end, 130 after
 * Ctrl-C (which ends a follower cleanly), 1 on an error (said on stderr); a reader that goes
 * away ends it quietly.
 */
export async function writeStored(
  source: JetStreamSource,
  stages: Duplex[],
  stdout: NodeJS.WritableStream,
): Promise<number> {
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    source.stop();
  };
  process.once('SIGINT', interrupt);
  try {
    await pipeline([source as Readable, ...stages, stdout], { end: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    say((error as Error).message);
    return 1;
  } finally {
    process.removeListener('SIGINT', interrupt);
    source.destroy();
  }
  return interrupted ? 130 : 0;
}

function refuseStray<V extends object>(values: V, flags: (keyof V)[], needs: string): void {
  const stray = flags.find((flag) => values[flag] !== undefined);
  if (stray !== undefined) throw new UsageError(`--${String(stray)} goes with ${needs} (see harness-events --help)`);
}

/** Options the library refuses (a run id that cannot be a subject token) are usage errors here. */
function asUsageError<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}

function dropAll(): Transform {
  return new Transform({ objectMode: true, transform: (_event, _encoding, done) => done() });
}

function natsServers(flag: string, text: string): string {
  for (const url of text.split(',')) {
    if (!/^(nats|tls):\/\/[^/\s]+$/.test(url.trim()))
      throw new UsageError(`${flag} takes nats://HOST:PORT (several comma-separated), got "${text}"`);
  }
  return text;
}
