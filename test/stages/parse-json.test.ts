import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { expect, test } from 'vitest';
import { BLANK, jsonParser, NotJson, parseJson, type Parsed } from '../../transforms/parse-json.js';
import { LineTooLong, type Line } from '../../transforms/split-lines.js';

function parse(lines: Line[]): Parsed[] {
  const out: Parsed[] = [];
  const stage = jsonParser((item) => out.push(item));
  for (const line of lines) stage.write(line);
  stage.end();
  return out;
}

test('JSON lines come out parsed, whatever their JSON type', () => {
  const out = parse(['{"type":"x","n":[1,2]}', '42', '"text"', 'null', '[true]']);
  expect(out.map((item) => (item as { value: unknown }).value)).toEqual([{ type: 'x', n: [1, 2] }, 42, 'text', null, [true]]);
});

test('a line that is not JSON comes out as a marker carrying its text', () => {
  expect(parse(['starting session | provider: x', '{"truncated":'])).toEqual([
    new NotJson('starting session | provider: x'),
    new NotJson('{"truncated":'),
  ]);
});

test('blank and whitespace-only lines come out as BLANK; too-long markers pass through', () => {
  const tooLong = new LineTooLong(123);
  expect(parse(['', '   \t', tooLong])).toEqual([BLANK, BLANK, tooLong]);
});

test('"__proto__" keys stay plain data and pollute nothing', () => {
  const [item] = parse(['{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}']);
  const value = (item as { value: Record<string, unknown> }).value;
  expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('as a Transform in stream.pipeline', async () => {
  const out: Parsed[] = [];
  await pipeline(
    Readable.from(['{"a":1}', 'nope'], { objectMode: true }),
    parseJson(),
    new Writable({ objectMode: true, write: (item, _e, done) => (out.push(item), done()) }),
  );
  expect(out).toEqual([{ key: 0, value: { a: 1 } }, new NotJson('nope')]);
});
