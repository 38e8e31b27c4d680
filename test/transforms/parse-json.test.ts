import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { BLANK, NotJson, parseJson, type Parsed } from '../../lib/transforms/parse-json.js';
import { LineTooLong, type Line } from '../../lib/transforms/split-lines.js';

function parse(lines: Line[]): Parsed[] {
  const out: Parsed[] = [];
  const stage = parseJson.stage()((item) => out.push(item));
  for (const line of lines) stage.write(line);
  stage.end();
  return out;
}

test('JSON lines come out parsed, whatever their JSON type', () => {
  const out = parse(['{"type":"x","n":[1,2]}', '42', '"text"', 'null', '[true]']);
  expect(out.map((item) => (item as { value: unknown }).value)).toEqual([
    { type: 'x', n: [1, 2] },
    42,
    'text',
    null,
    [true],
  ]);
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
  expect(out).toEqual([{ value: { a: 1 } }, new NotJson('nope')]);
});

describe('a record written into the middle of another (anthropics/claude-code#49640)', () => {
  const outer = JSON.stringify({
    type: 'assistant',
    message: { id: 'm1', content: [{ type: 'text', text: 'Hello there, world' }] },
  });
  const inner = JSON.stringify({ type: 'rate_limit_event', rate_limit_info: { status: 'allowed' } });
  const cut = outer.indexOf('there');

  test('both records are recovered: the inner one at once, the outer one when its tail arrives', () => {
    const lines = [outer.slice(0, cut) + inner, outer.slice(cut), '{"type":"next"}'];
    expect(parse(lines)).toEqual([
      { value: JSON.parse(inner) },
      { value: JSON.parse(outer) },
      { value: { type: 'next' } },
    ]);
  });

  test('a head that nothing completes comes out as a fragment, then the next line as itself', () => {
    expect(parse([outer.slice(0, cut) + inner, '{"type":"next"}'])).toEqual([
      { value: JSON.parse(inner) },
      new NotJson(outer.slice(0, cut), true),
      { value: { type: 'next' } },
    ]);
    expect(parse([outer.slice(0, cut) + inner, 'still broken'])).toEqual([
      { value: JSON.parse(inner) },
      new NotJson(outer.slice(0, cut), true),
      new NotJson('still broken'),
    ]);
    expect(parse([outer.slice(0, cut) + inner])).toEqual([
      { value: JSON.parse(inner) },
      new NotJson(outer.slice(0, cut), true),
    ]);
  });

  test('two whole records glued together without a newline come out as both, in input order', () => {
    const first = { type: 'system', subtype: 'init', cwd: '/ws' };
    const second = { type: 'assistant', message: { id: 'm', content: [] } };
    expect(parse([JSON.stringify(first) + JSON.stringify(second), '{"type":"next"}'])).toEqual([
      { value: first },
      { value: second, sameLine: true },
      { value: { type: 'next' } },
    ]);
  });

  test('a broken line that does not start like a record, or holds no whole record, stays one NotJson', () => {
    expect(parse([`banner ${inner}`, outer.slice(0, cut)])).toEqual([
      new NotJson(`banner ${inner}`),
      new NotJson(outer.slice(0, cut)),
    ]);
  });
});
