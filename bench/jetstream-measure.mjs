/**
 * One JetStream bench measurement in a plain node process of its own:
 * node bench/jetstream-measure.mjs <file|stdout|client|jetstream|jetstream-1> <events.jsonl> [nats-url] [output-file]
 * reads the events into memory, then times writing all of them to the case's sink; prints
 * {seconds, events}.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { serialize } from '../dist/lib/transforms.js';
import { toJetStream } from '../dist/lib/interfaces/jetstream/index.js';

const [which, file, url, output] = process.argv.slice(2);
const events = readFileSync(file, 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line));

const toNats = (maxInFlight) => toJetStream({ servers: url, harness: 'bench', run: randomUUID(), maxInFlight });
const cases = {
  // The baselines: the same events as JSONL to a file, and to stdout (/dev/null here).
  file: () => pipeline(Readable.from(events), serialize(), createWriteStream(output)),
  stdout: () => pipeline(Readable.from(events), serialize(), process.stdout),
  // The NATS client alone, 256 publishes in flight: the ceiling for the sink built on it.
  client: async () => {
    const connection = await connect({ servers: url });
    const js = jetstream(connection);
    const run = randomUUID();
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < events.length; index = next++) {
        await js.publish(`harness.bench.${run}.${events[index].type}`, JSON.stringify(events[index]), {
          msgID: `bench.${run}.${index + 1}`,
        });
      }
    };
    await Promise.all(Array.from({ length: 256 }, worker));
    await connection.drain();
  },
  // Every event acknowledged by a local nats-server, 256 in flight (the default).
  jetstream: () => pipeline(Readable.from(events), toNats(256)),
  // One at a time: what the in-flight window buys.
  'jetstream-1': () => pipeline(Readable.from(events), toNats(1)),
};

const started = performance.now();
await cases[which]();
const seconds = (performance.now() - started) / 1000;
process.stderr.write(JSON.stringify({ seconds, events: events.length }) + '\n');
