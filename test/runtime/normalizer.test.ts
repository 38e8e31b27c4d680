/** The public API: createNormalizer in stream.pipeline around a real child, normalize(), options. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect, test, vi } from 'vitest';
import { createNormalizer, harnesses, normalize, SchemaViolationError, type HarnessEvent } from '../../lib/index.js';
import { classify, correlate, parseJson, serialize, splitLines, validate } from '../../lib/transforms.js';
import { bodies, brokenHarness, fixturePath, jsonl, run, runFixture } from '../helpers.js';

const children = new URL('../children/', import.meta.url).pathname;

test('in one stream.pipeline() from a child process stdout to a sink (the README example)', async () => {
  const child = spawn(process.execPath, [join(children, 'replay.mjs'), fixturePath('claude-code/lab/read.jsonl'), '0']);
  const events: HarnessEvent[] = [];
  const normalizer = createNormalizer({ harness: 'claude-code', strict: true });
  await pipeline(
    child.stdout,
    normalizer,
    new Writable({ objectMode: true, write: (event, _encoding, done) => (events.push(event), done()) }),
  );
  expect(events.map((e) => e.type)).toEqual(['agent', 'read', 'agent', 'read', 'read', 'agent']);
  expect(normalizer.metrics).toMatchObject({ ended: true, cost: 0.00392 });
});

test('normalize(): an async iterable over any readable, metrics complete when it ends', async () => {
  const iterable = normalize(Readable.from([readFileSync(fixturePath('claude-code/lab/skill.jsonl'))]), {
    harness: 'claude-code',
  });
  const types: string[] = [];
  for await (const event of iterable) types.push(event.type);
  expect(types).toEqual(['agent', 'skill', 'list', 'agent']);
  expect(iterable.metrics.events).toEqual({ agent: 2, skill: 1, list: 1 });
});

test('normalize(): an input error ends the iteration with that error', async () => {
  async function* failing() {
    yield Buffer.from('{"type":"stream_event"}\n');
    throw new Error('disk on fire');
  }
  await expect(
    (async () => {
      for await (const _event of normalize(failing(), { harness: 'claude-code' }));
    })(),
  ).rejects.toThrow('disk on fire');
});

test('any split of a real capture into chunks gives the same events', async () => {
  const bytes = readFileSync(fixturePath('claude-code/lab/write-edit.jsonl'));
  const whole = bodies((await runFixture('claude-code/lab/write-edit.jsonl', { harness: 'claude-code' })).events);
  for (const size of [1, 7, 100, 4096]) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    expect(bodies((await run(chunks, { harness: 'claude-code' })).events)).toEqual(whole);
  }
});

test('strict: a schema violation is a stream error', async () => {
  const iterate = async (strict: boolean) => {
    const out: HarnessEvent[] = [];
    for await (const event of normalize(Readable.from([Buffer.from('{}\n')]), { harness: brokenHarness, strict }))
      out.push(event);
    return out;
  };
  await expect(iterate(true)).rejects.toBeInstanceOf(SchemaViolationError);
  expect(bodies(await iterate(false))).toEqual([
    {
      type: 'warning',
      code: 'invalid_event',
      message: "read event breaks its schema: read must have required property 'path'",
    },
    { type: 'unknown', raw: expect.objectContaining({ type: 'read' }) },
  ]);
});

test('idleFlushMs: text held for its message is emitted when live input pauses', async () => {
  // The test's clock, not the machine's: a busy machine cannot move the pause.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const normalizer = createNormalizer({ harness: 'claude-code', idleFlushMs: 50 });
    const seen: string[] = [];
    normalizer.on('data', (event: HarnessEvent) => seen.push(event.type));
    normalizer.write(
      jsonl({ type: 'assistant', message: { id: 'm1', content: [{ type: 'text', text: 'thinking out loud' }] } }),
    );
    await vi.advanceTimersByTimeAsync(49);
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual(['agent']);
    normalizer.end();
  } finally {
    vi.useRealTimers();
  }
});

test('output: jsonl gives the wire form, one line per event', async () => {
  const normalizer = createNormalizer({ harness: 'claude-code', output: 'jsonl' });
  let text = '';
  await pipeline(
    Readable.from([readFileSync(fixturePath('claude-code/lab/read.jsonl'))]),
    normalizer,
    new Writable({ write: (chunk, _e, done) => ((text += chunk), done()) }),
  );
  const lines = text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines.map((e) => e.type)).toEqual(['agent', 'read', 'agent', 'read', 'read', 'agent']);
});

test('an unknown harness name is an error at once', () => {
  // @ts-expect-error -- not a HarnessName: it does not compile, and a name from outside the program throws at run time
  expect(() => createNormalizer({ harness: 'cursor' })).toThrow(/unknown harness "cursor" \(known: acp, claude-code, /);
});

test('the six stages as separate Transforms in one stream.pipeline give what the fused normalizer gives', async () => {
  const file = fixturePath('claude-code/lab/bash.jsonl');
  const fused = bodies((await runFixture('claude-code/lab/bash.jsonl', { harness: 'claude-code' })).events);
  const harness = harnesses.get('claude-code')!;
  let text = '';
  await pipeline(
    Readable.from([readFileSync(file)]),
    splitLines(),
    parseJson(),
    correlate({ harness }),
    classify(),
    validate({ strict: true }),
    serialize(),
    new Writable({ write: (chunk, _e, done) => ((text += chunk), done()) }),
  );
  expect(
    bodies(
      text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ),
  ).toEqual(fused);
});
