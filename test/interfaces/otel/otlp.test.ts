/**
 * Issue 41, "done when": OTLP/HTTP JSON to a loopback receiver, through the real exporter (harness-events/otlp) and
 * through the built CLI (`normalize --otlp`, `run --otlp`, `otel FILE`): span names, parents, attributes and times
 * in one trace, the OTEL_EXPORTER_OTLP_* variables honoured, TRACEPARENT in and out, a collector that is not there.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createNormalizer } from '../../../lib/index.js';
import { toOtel } from '../../../lib/interfaces/otel/index.js';
import { otlpExport } from '../../../lib/interfaces/otlp/index.js';
import { harnessEvents } from '../../cli.js';
import { fixturePath } from '../../helpers.js';
import { startReceiver, type Receiver } from './receiver.js';
import { claudeSubagent as expected } from './expected.js';
import { byName, plain, type RawSpan } from './spans.js';

const capture = fixturePath('claude-code/lab/subagent.jsonl');
const tmp = mkdtempSync(join(tmpdir(), 'harness-events-otlp-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

/** The receiver's spans as the tests compare them: by name, times as ISO strings. */
function received() {
  return byName(plain(receiver.spans())).map((span) => ({
    ...span,
    start: new Date(span.start).toISOString(),
    end: new Date(span.end).toISOString(),
  }));
}

/** The capture's normalized events, as `normalize` prints them, without their observation times. */
async function plainEvents(): Promise<unknown[]> {
  const { stdout } = await harnessEvents(['normalize', '--harness', 'claude-code', capture]);
  return untimed(stdout);
}

function untimed(stdout: string): unknown[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const { timestamp, ...event } = JSON.parse(line);
      expect(timestamp).toMatch(/Z$/);
      return event;
    });
}

describe('harness-events/otlp: the real exporter', () => {
  test('OTLP/HTTP JSON to /v1/traces, one trace, the resource named harness-events', async () => {
    const otlp = otlpExport({ url: receiver.url });
    const normalizer = createNormalizer({ harness: 'claude-code', trace: true, cwd: '/home/user/project' });
    await pipeline(
      Readable.from([readFileSync(capture)]),
      normalizer,
      toOtel({ tracerProvider: otlp.tracerProvider, clock: 'harness' }),
    );
    await otlp.shutdown();
    expect(received()).toEqual(expected('INTERNAL'));
    expect(receiver.requests.map(({ path, headers }) => [path, headers['content-type']])).toEqual([
      ['/v1/traces', 'application/json'],
    ]);
    expect(receiver.resource()).toMatchObject({ 'service.name': 'harness-events' });
    expect(otlp.failed).toEqual({ spans: 0 });
  });
});

describe('the CLI', { timeout: 60_000 }, () => {
  test('normalize --otlp: events unchanged on stdout, spans at the receiver, OTEL_* variables honoured', async () => {
    const env = { ...process.env, OTEL_EXPORTER_OTLP_HEADERS: 'x-team=agents', OTEL_SERVICE_NAME: 'ci' };
    const result = await harnessEvents(['normalize', '--harness', 'claude-code', '--otlp', receiver.url, capture], {
      env,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(untimed(result.stdout)).toEqual(await plainEvents());
    expect(received()).toEqual(expected('INTERNAL'));
    expect(receiver.requests[0]!.headers['x-team']).toBe('agents');
    expect(receiver.resource()).toMatchObject({ 'service.name': 'ci' });
  });

  test('otel FILE: a saved trace exported; a line that is no trace record said on stderr and skipped', async () => {
    const file = join(tmp, 'trace.jsonl');
    const normalizer = createNormalizer({ harness: 'claude-code', trace: true, output: 'jsonl' });
    normalizer.end(readFileSync(capture));
    const lines: Buffer[] = [];
    for await (const chunk of normalizer) lines.push(chunk);
    writeFileSync(file, Buffer.concat([...lines, Buffer.from('not json\n{"kind":"call_started"}\n')]));
    const total = Buffer.concat(lines).toString().trim().split('\n').length;
    const result = await harnessEvents(['otel', '--otlp', receiver.url, file]);
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr:
        `harness-events: line ${total + 1}: not JSON; skipped\n` +
        `harness-events: line ${total + 2}: not a trace record (schemas/trace.schema.json); skipped\n`,
    });
    expect(received()).toEqual(expected('INTERNAL'));
  });

  test('a collector that is not there: the events still printed, one line on stderr, exit 1', async () => {
    await receiver.close();
    // Honoured: the exporter gives up after a second, not its default ten.
    const env = { ...process.env, OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '1000' };
    const result = await harnessEvents(['normalize', '--harness', 'claude-code', '--otlp', receiver.url, capture], {
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^harness-events: --otlp ${receiver.url}: \\d+ spans not exported \\(.*ECONNREFUSED.*\\)\\n$`),
    );
    expect(untimed(result.stdout)).toEqual(await plainEvents());
    receiver = await startReceiver();
  });

  test('--otlp takes an http(s) URL', async () => {
    expect(await harnessEvents(['normalize', '--harness', 'codex', '--otlp', 'localhost:4318', capture])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "harness-events: --otlp takes the collector's http(s) URL (e.g. http://localhost:4318), got " +
        '"localhost:4318"\n',
    });
  });

  test('run --otlp: the run span is CLIENT, the child gets it as TRACEPARENT, under the caller one', async () => {
    const since = Date.now();
    const seen = join(tmp, 'traceparent');
    const script = join(tmp, 'agent.mjs');
    writeFileSync(
      script,
      "import { readFileSync, writeFileSync } from 'node:fs';\n" +
        'writeFileSync(process.argv[2], String(process.env.TRACEPARENT));\n' +
        'process.stdout.write(readFileSync(process.argv[3]));\n',
    );
    const caller = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const result = await harnessEvents(
      ['run', '--harness', 'claude-code', '--otlp', receiver.url, '--', process.execPath, script, seen, capture],
      { env: { ...process.env, TRACEPARENT: caller } },
    );
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const spans: RawSpan[] = receiver.spans();
    const root = spans.find((span) => span.name === 'invoke_agent claude-code')!;
    expect(root).toMatchObject({
      kind: 'CLIENT',
      traceId: '0af7651916cd43dd8448eb211c80319c',
      parentSpanId: 'b7ad6b7169203331',
    });
    expect(readFileSync(seen, 'utf8')).toBe(`00-${root.traceId}-${root.spanId}-01`);
    // A live run: its times are the run's own, within the test.
    expect(root.start).toBeGreaterThanOrEqual(since);
    // The tree the capture gives, in one trace (plain() checks it), at the capture's own times.
    const tree = ({ name, parent }: { name: string; parent?: string }) => [name, parent];
    expect(byName(plain(spans)).map(tree)).toEqual(expected('CLIENT').map(tree));
  });
});
