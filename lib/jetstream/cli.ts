/**
 * The command line's JetStream parts: `--publish` on `run` and `normalize` (the events go to
 * JetStream as well as to stdout), and `replay --from`, which prints a stored run as JSONL.
 */
import { Transform, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { usage, UsageError, writeMetrics } from '../cli.js';
import type { RunMetrics } from '../events.js';
import { serialize } from '../../transforms/serialize.js';
import { publishTo, toJetStream } from './sink.js';
import { fromJetStream, type JetStreamRecord } from './source.js';

/** The options `run` and `normalize` take for publishing. */
export const publishFlags = {
  publish: { type: 'string' },
  stream: { type: 'string' },
  run: { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

interface PublishValues {
  publish?: string;
  stream?: string;
  run?: string;
  quiet?: boolean;
}

/**
 * The stages after the events of `run`/`normalize` when publishing: each event to JetStream
 * (the run's metrics as its final message), then JSONL for stdout, or nothing with --quiet.
 * Undefined when the command neither publishes nor is quiet.
 */
export function publishStages(values: PublishValues, harness: string, metrics: () => RunMetrics): Duplex[] | undefined {
  if (values.publish === undefined) {
    const stray = (['stream', 'run', 'quiet'] as const).find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --publish (see harness-events --help)`);
    return undefined;
  }
  const servers = natsServers('--publish', values.publish);
  const sink = asUsageError(() => toJetStream({ servers, harness, run: values.run, stream: values.stream, metrics }));
  process.stderr.write(`harness-events: publishing run ${sink.run} to ${values.publish}, stream ${sink.stream}, subjects ${sink.prefix}.${harness}.${sink.run}.<type>\n`);
  return [publishTo(sink), values.quiet ? dropAll() : serialize()];
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
    if (!/^(nats|tls):\/\/[^/\s]+$/.test(url.trim())) throw new UsageError(`${flag} takes nats://HOST:PORT (several comma-separated), got "${text}"`);
  }
  return text;
}

/** `harness-events replay --from nats://HOST:PORT ...`: stored events as JSONL; resolves to the exit code. */
export async function replayCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        from: { type: 'string' },
        stream: { type: 'string' },
        run: { type: 'string' },
        harness: { type: 'string' },
        since: { type: 'string' },
        follow: { type: 'boolean' },
        metrics: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    stdout.write(usage + '\n');
    return 0;
  }
  const from = values.from;
  if (from === undefined) throw new UsageError('replay needs --from nats://HOST:PORT (see harness-events --help)');
  if (values.metrics !== undefined && values.run === undefined) throw new UsageError('--metrics needs --run: one run has one metrics message');
  if (values.since !== undefined && Number.isNaN(Date.parse(values.since))) throw new UsageError(`--since takes a date and time, e.g. 2026-11-30T12:00:00Z, got "${values.since}"`);
  const source = asUsageError(() =>
    fromJetStream({
      servers: natsServers('--from', from),
      stream: values.stream,
      filter: { run: values.run, harness: values.harness },
      deliver: values.since === undefined ? 'all' : { since: values.since },
      follow: values.follow,
      output: 'records',
      giveUpAfterMs: 10_000,
    }),
  );
  let metrics: RunMetrics | undefined;
  const events = new Transform({
    objectMode: true,
    transform(record: JetStreamRecord, _encoding, done) {
      if ('metrics' in record) {
        metrics = record.metrics;
        done();
      } else done(null, record.event);
    },
  });
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    source.destroy();
  };
  process.once('SIGINT', interrupt);
  try {
    await pipeline(source, events, serialize(), stdout, { end: false });
  } catch (error) {
    if (interrupted) return 130;
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    process.stderr.write(`harness-events: ${(error as Error).message}\n`);
    return 1;
  } finally {
    process.removeListener('SIGINT', interrupt);
    source.destroy();
  }
  if (values.metrics !== undefined) {
    if (metrics === undefined) {
      process.stderr.write(`harness-events: run ${values.run} has no metrics message (yet)\n`);
      return 1;
    }
    await writeMetrics(values.metrics, metrics);
  }
  return 0;
}
