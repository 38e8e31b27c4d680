/** `harness-events replay --from nats://HOST:PORT ...`: the events stored in NATS JetStream, as JSONL. */
import { Transform } from 'node:stream';
import { parseArgs } from 'node:util';
import type { RunMetrics } from '../../kernel/events.js';
import { serialize } from '../../transforms/serialize.js';
import type { JetStreamRecord } from '../jetstream/source.js';
import { writeMetrics } from './files.js';
import { commandHelp, writeHelp } from './help.js';
import { fromFlags, sourceOf, writeStored } from './jetstream.js';
import { UsageError } from './usage-error.js';
import { say } from './output.js';

/** `harness-events replay --from nats://HOST:PORT ...`: stored events as JSONL; resolves to the exit code. */
export async function replayCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        ...fromFlags,
        stream: { type: 'string' },
        run: { type: 'string' },
        harness: { type: 'string' },
        metrics: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return writeHelp(stdout, commandHelp('replay'));
  if (values.from === undefined)
    throw new UsageError('replay needs --from nats://HOST:PORT (see harness-events --help)');
  if (values.metrics !== undefined && values.run === undefined)
    throw new UsageError('--metrics needs --run: one run has one metrics message');
  const source = sourceOf(values, values.from, 'records', values.harness);
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
  const code = await writeStored(source, [events, serialize()], stdout);
  if (code === 1 || values.metrics === undefined) return code;
  if (metrics === undefined) {
    say(`run ${values.run} has no metrics message (yet)`);
    return 1;
  }
  return (await writeMetrics(values.metrics, metrics)) ? code : 1;
}
