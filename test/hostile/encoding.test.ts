/**
 * Input that is not UTF-8 text: UTF-16 with and without a byte-order mark, gzip, byte-order marks between
 * captures, records glued together. Decoded where it can be, one warning saying what it was, the events as from
 * UTF-8.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { records as claudeRecords } from '../../lib/harnesses/claude-code/correlate.js';
import { bodies, fixturePath, run } from '../helpers.js';
import { text } from './claude-text.js';

describe('input that is not UTF-8 text', () => {
  const capture = readFileSync(fixturePath('claude-code/lab/read.jsonl'));
  const encoding = (message: string) => ({ type: 'warning', code: 'encoding', message });
  let plain: Record<string, unknown>[];

  test(
    "UTF-16LE with a byte-order mark (Windows PowerShell 5.1's >): decoded, one encoding warning, the same " + 'events',
    async () => {
      plain = bodies((await run(capture, { harness: 'claude-code' })).events);
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(capture.toString('utf8'), 'utf16le')]);
      const { events } = await run(utf16, { harness: 'claude-code' });
      expect(bodies(events)).toEqual([
        encoding("the input is UTF-16LE, not UTF-8 (as Windows PowerShell 5.1's > writes it): decoded"),
        ...plain,
      ]);
    },
  );

  test('UTF-16LE without a mark, UTF-16BE with one, cut into one-byte chunks: decoded all the same', async () => {
    const le = Buffer.from(capture.toString('utf8'), 'utf16le');
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
    const oneByte = (bytes: Buffer) => [...bytes].map((byte) => Buffer.from([byte]));
    expect(bodies((await run(oneByte(le.subarray(0, 4000)), { harness: 'claude-code' })).events)[0]).toEqual(
      encoding("the input is UTF-16LE, not UTF-8 (as Windows PowerShell 5.1's > writes it): decoded"),
    );
    expect(bodies((await run(le, { harness: 'claude-code' })).events).slice(1)).toEqual(plain);
    expect(bodies((await run(be, { harness: 'claude-code' })).events)).toEqual([
      encoding("the input is UTF-16BE, not UTF-8 (as Windows PowerShell 5.1's > writes it): decoded"),
      ...plain,
    ]);
  });

  test('gzip: one warning saying so, not a warning per line', async () => {
    const gz = gzipSync(capture);
    const { events, metrics } = await run(gz, { harness: 'claude-code' });
    expect(bodies(events)).toEqual([
      encoding(
        `the input is gzip-compressed (it starts with 1f 8b): ${gz.length} bytes skipped; decompress it first ` +
          `(zcat FILE | harness-events ...)`,
      ),
    ]);
    expect(metrics.input).toEqual({ bytes: gz.length, lines: 0, rules: {} });
  });

  test('two captures concatenated, each with a byte-order mark: both read whole', async () => {
    const bom = Buffer.from('\ufeff');
    const { events } = await run(Buffer.concat([bom, capture, bom, capture]), { harness: 'claude-code' });
    expect(bodies(events)).toEqual([...plain, ...plain]);
  });

  test('two records glued together without a newline: both, in input order', async () => {
    const { events, rules } = await run(JSON.stringify(text(1)) + JSON.stringify(text(2)) + '\n', {
      harness: 'claude-code',
    });
    expect(bodies(events)).toEqual([
      { type: 'agent', message: 'line 1' },
      { type: 'agent', message: 'line 2' },
    ]);
    expect(rules).toEqual([claudeRecords.assistant.rules.blocks]);
  });
});
