/** The public API as a user calls it: names where names make sense, types that tell the truth. */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect, test } from 'vitest';
import { createNormalizer, harnessNamed, normalize, type HarnessEvent } from '../lib/index.js';
import { classify, correlate, parseJson, splitLines, validate } from '../lib/transforms.js';
import { bodies, jsonl } from './helpers.js';

const read = jsonl(
  { type: 'system', subtype: 'init', session_id: 's' },
  {
    type: 'assistant',
    message: { id: 'm', content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: 'src/a.ts' } }] },
  },
  { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] } },
);

test("output: 'jsonl' is typed, and is, Buffers of JSON lines; the default is events", async () => {
  const lines: Buffer[] = [];
  for await (const chunk of normalize(Readable.from([Buffer.from(read)]), { harness: 'claude-code', output: 'jsonl' }))
    lines.push(chunk);
  expect(lines.every((chunk) => Buffer.isBuffer(chunk))).toBe(true);
  expect(
    Buffer.concat(lines)
      .toString()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).type),
  ).toEqual(['read']);
  const events: HarnessEvent[] = [];
  for await (const event of normalize(Readable.from([Buffer.from(read)]), { harness: 'claude-code' }))
    events.push(event);
  expect(events.map((event) => event.type)).toEqual(['read']);
  // @ts-expect-error a jsonl normalizer yields Buffers, not events
  const notAnEvent: AsyncIterable<HarnessEvent> = createNormalizer({ harness: 'claude-code', output: 'jsonl' });
  expect(notAnEvent).toBeDefined();
});

test('a hand-joined chain names its harness once, to correlate; correlate exposes the metrics', async () => {
  const events: HarnessEvent[] = [];
  const correlation = correlate({ harness: harnessNamed('claude-code'), cwd: '/ws' });
  await pipeline(
    Readable.from([Buffer.from(read)]),
    splitLines(),
    parseJson(),
    correlation,
    classify(),
    validate({ strict: true }),
    new Writable({ objectMode: true, write: (event, _e, done) => (events.push(event), done()) }),
  );
  expect(bodies(events)).toEqual([{ type: 'read', path: '/ws/src/a.ts', is_success: true }]);
  expect(correlation.metrics).toMatchObject({
    harness: 'claude-code',
    session_id: 's',
    input: { lines: 3, bytes: Buffer.byteLength(read) },
    events: { read: 1 },
  });
  // @ts-expect-error -- the stages take a Harness, never a name: the registry is the runtime's
  expect(() => correlate({ harness: 'claude-code' })).toThrow(
    'correlate: harness must be a Harness object (harnesses.get(name), harnessFrom(name))',
  );
  expect(() => harnessNamed('claude')).toThrow('unknown harness "claude"');
});

test("a relative cwd resolves against the process's working directory, as the CLI resolves --cwd", async () => {
  const events: HarnessEvent[] = [];
  for await (const event of normalize(Readable.from([Buffer.from(read)]), { harness: 'claude-code', cwd: 'project' }))
    events.push(event);
  expect(bodies(events)).toEqual([{ type: 'read', path: `${process.cwd()}/project/src/a.ts`, is_success: true }]);
});
