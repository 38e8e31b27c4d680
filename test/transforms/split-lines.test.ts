import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { InputBytes, splitLines, LineTooLong, type Line } from '../../lib/transforms/split-lines.js';

/** Feeds `chunks` to a splitter and returns what it emits, less its byte counts (checked on their own below). */
function split(chunks: Buffer[], maxLineBytes?: number): Line[] {
  const out: Line[] = [];
  const stage = splitLines.stage({ maxLineBytes })((line) => out.push(line));
  for (const chunk of chunks) stage.write(chunk);
  stage.end();
  return out.filter((line) => !(line instanceof InputBytes));
}

test("after each chunk, an InputBytes note with the chunk's size: the correlator's byte count", () => {
  const out: Line[] = [];
  const stage = splitLines.stage()((line) => out.push(line));
  for (const chunk of [Buffer.from('{"a":1}\n{"b"'), Buffer.from(':2}\n'), Buffer.from('tail')]) stage.write(chunk);
  stage.end();
  expect(out).toEqual(['{"a":1}', new InputBytes(12), '{"b":2}', new InputBytes(4), new InputBytes(4), 'tail']);
});

/** `bytes` cut into pieces at the given offsets. */
function cut(bytes: Buffer, at: number[]): Buffer[] {
  const pieces: Buffer[] = [];
  let start = 0;
  for (const end of [...at, bytes.length]) {
    pieces.push(bytes.subarray(start, end));
    start = end;
  }
  return pieces;
}

describe('line splitter', () => {
  const text = 'first {"a":1}\r\nsecond: é, 日本, 🎉\n\nthird\rstill third\nlast without newline';
  const bytes = Buffer.from(text);
  const expected = ['first {"a":1}', 'second: é, 日本, 🎉', '', 'third\rstill third', 'last without newline'];

  test('splits on \\n and \\r\\n, keeps a lone \\r, keeps a last line without a newline', () => {
    expect(split([bytes])).toEqual(expected);
  });

  test('a cut anywhere, including inside a multi-byte character or between \\r and \\n, gives the same lines', () => {
    for (let i = 0; i <= bytes.length; i++) {
      for (const j of [i, i + 1, i + 3]) {
        if (j > bytes.length) continue;
        expect(split(cut(bytes, [i, j]))).toEqual(expected);
      }
    }
  });

  test('one byte at a time gives the same lines', () => {
    expect(split([...bytes].map((b) => Buffer.from([b])))).toEqual(expected);
  });

  test('invalid UTF-8 becomes U+FFFD, also when the bad sequence is split across chunks', () => {
    const bad = Buffer.from([0x61, 0xe6, 0x97, 0x0a, 0xff, 0x62, 0x0a, 0xf0, 0x9f, 0x8e]);
    const want = ['a\ufffd', '\ufffdb', '\ufffd'];
    expect(split([bad])).toEqual(want);
    for (let i = 0; i <= bad.length; i++) expect(split(cut(bad, [i]))).toEqual(want);
  });

  test('a byte-order mark at the start of any line is dropped (two files concatenated), inside a line kept', () => {
    expect(split([Buffer.from('\ufeff{"a":1}\n\ufeff{"b":2}\nx\ufeffy\n')])).toEqual([
      '{"a":1}',
      '{"b":2}',
      'x\ufeffy',
    ]);
  });

  test('no input gives no lines; a lone newline gives one empty line', () => {
    expect(split([])).toEqual([]);
    expect(split([Buffer.from('\n')])).toEqual(['']);
  });

  test('a line over maxLineBytes comes out as its size, and the next line is intact', () => {
    const input = Buffer.from('short\n' + 'x'.repeat(100) + '\r\nafter\n' + 'y'.repeat(10) + '\n' + 'z'.repeat(11));
    const want = ['short', new LineTooLong(100, 10), 'after', 'y'.repeat(10), new LineTooLong(11, 10)];
    expect(split([input], 10)).toEqual(want);
    for (const size of [1, 3, 7, 64]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < input.length; i += size) chunks.push(input.subarray(i, i + size));
      expect(split(chunks, 10)).toEqual(want);
    }
  });

  test('a line of exactly maxLineBytes is kept, with or without \\r', () => {
    expect(split([Buffer.from('abcde\r\nfghij\n')], 5)).toEqual(['abcde', 'fghij']);
    expect(split([Buffer.from('abc'), Buffer.from('de\r'), Buffer.from('\n')], 5)).toEqual(['abcde']);
  });

  test('an oversize line is not held: memory stays bounded while 50 MB pass through', () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const out: Line[] = [];
    const stage = splitLines.stage({ maxLineBytes: 1024 })((line) => out.push(line));
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    for (let i = 0; i < 50; i++) {
      stage.write(chunk);
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }
    stage.write(Buffer.from('\nok\n'));
    stage.end();
    expect(out.filter((line) => !(line instanceof InputBytes))).toEqual([
      new LineTooLong(50 * 1024 * 1024, 1024),
      'ok',
    ]);
    expect(peak).toBeLessThan(8 * 1024 * 1024);
  });

  test('as a Transform in stream.pipeline', async () => {
    const lines: Line[] = [];
    await pipeline(
      Readable.from([Buffer.from('a\nb'), Buffer.from('c\r\n')]),
      splitLines(),
      new Writable({ objectMode: true, write: (line, _e, done) => (lines.push(line), done()) }),
    );
    // The first chunk waits for a fourth byte to tell its encoding: its count goes out before its line.
    expect(lines).toEqual([new InputBytes(3), 'a', 'bc', new InputBytes(3)]);
  });
});
