/**
 * The price table over @pydantic/genai-prices (a devDependency here): each figure below is worked out by hand from
 * the table's published prices (USD per million tokens), then checked exactly.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { priceAliases } from '../../../lib/runtime/usage/price-aliases.js';
import {
  dataDates,
  importPrices,
  loadPriceTable,
  missingPrices,
  pricesPackage,
  type PriceTable,
} from '../../../lib/runtime/usage/prices.js';
import { roundUsd } from '../../../lib/runtime/usage/cost.js';

const root = new URL('../../../', import.meta.url);
const installed = JSON.parse(
  readFileSync(new URL(`node_modules/${pricesPackage.name}/package.json`, root), 'utf8'),
) as { version: string; engines: { node: string } };

let table: PriceTable;
beforeAll(async () => {
  table = await loadPriceTable();
});
const usd = (call: Parameters<PriceTable['usd']>[0]) => {
  const price = table.usd(call);
  return price === undefined ? undefined : roundUsd(price);
};

test("the table's date is the installed release's data date; that release runs on Node 20", () => {
  expect(dataDates[installed.version], `add ${installed.version}'s data date to dataDates`).toBeDefined();
  expect(table).toMatchObject({ version: installed.version, date: dataDates[installed.version] });
  expect(installed.engines.node).toBe('>=20');
});

describe('estimates, by hand', () => {
  test('Claude Sonnet 4.5: input 3, cache write 3.75, cache read 0.3, output 15', () => {
    // 1,000 x 3 + 20,000 x 0.3 + 5,000 x 3.75 + 400 x 15 = 3,000 + 6,000 + 18,750 + 6,000 = 33,750 per million.
    const tokens = { input: 1000, cache_read: 20_000, cache_write: 5000, output: 400 };
    expect(usd({ harness: 'claude-code', model: 'claude-sonnet-4-5', tokens })).toBe(0.03375);
    // A snapshot suffix, a provider prefix: the same model.
    expect(usd({ harness: 'claude-code', model: 'claude-sonnet-4-5-20250929', tokens })).toBe(0.03375);
    expect(usd({ harness: 'opencode', model: 'anthropic/claude-sonnet-4-5', tokens })).toBe(0.03375);
  });

  test("past 200k input tokens, the call is paid at the long-context tier (Sonnet 4.5's 6 and 22.5)", () => {
    // 250,000 x 6 + 1,000 x 22.5 = 1,522,500 per million.
    expect(usd({ harness: 'claude-code', model: 'claude-sonnet-4-5', tokens: { input: 250_000, output: 1000 } })).toBe(
      1.5225,
    );
  });

  test('GPT-5 under Codex: cached input 0.125, reasoning paid as output (10)', () => {
    // 2,000 x 1.25 + 8,000 x 0.125 + (300 + 200) x 10 = 2,500 + 1,000 + 5,000 = 8,500 per million.
    const tokens = { input: 2000, cache_read: 8000, output: 300, reasoning: 200 };
    expect(usd({ harness: 'codex', model: 'gpt-5', tokens })).toBe(0.0085);
    expect(usd({ harness: 'codex', model: 'gpt-5-codex', tokens })).toBe(0.0085);
  });

  test('a price that changes on a date applies from it (Gemini 3.6 Flash doubles on 2027-01-01)', () => {
    const tokens = { input: 1_000_000, output: 1_000_000 };
    // 0.75 + 3.75, then 1.5 + 7.5.
    expect(usd({ harness: 'gemini', model: 'gemini-3.6-flash', tokens, at: new Date('2026-12-05T12:00:00Z') })).toBe(
      4.5,
    );
    expect(usd({ harness: 'gemini', model: 'gemini-3.6-flash', tokens, at: new Date('2027-02-01T00:00:00Z') })).toBe(9);
  });

  test('aliases: gemini-3.1-pro at the preview price, glm-4.6 at GLM-4.5s', () => {
    // 100,000 x 2 + 10,000 x 12 = 320,000 per million.
    expect(usd({ harness: 'gemini', model: 'gemini-3.1-pro', tokens: { input: 100_000, output: 10_000 } })).toBe(0.32);
    // 1M each: 0.6 + 0.11 + 2.2.
    const million = { input: 1_000_000, cache_read: 1_000_000, output: 1_000_000 };
    expect(usd({ harness: 'opencode', model: 'zai/glm-4.6', tokens: million })).toBe(2.91);
    // Through OpenRouter it costs OpenRouter's price, the table's own row: 0.43 + 0.08 + 1.74, not the alias's.
    expect(usd({ harness: 'opencode', model: 'openrouter/z-ai/glm-4.6', tokens: million })).toBe(2.25);
    // Past 200,000 prompt tokens, the preview's upper tier: 300,000 x 4 per million.
    expect(usd({ harness: 'gemini', model: 'gemini-3.1-pro', tokens: { input: 300_000 } })).toBe(1.2);
  });

  test("each alias's target still costs what the row was checked at (per 100,000 tokens: below any tier)", () => {
    for (const alias of priceAliases) {
      const one = (tokens: object) => usd({ model: alias.name, tokens, at: new Date('2026-12-05T00:00:00Z') });
      const tenth = (price: number) => roundUsd(price / 10);
      expect(one({ input: 100_000 }), alias.id).toBe(tenth(alias.checked.input));
      expect(one({ output: 100_000 }), alias.id).toBe(tenth(alias.checked.output));
      if (alias.checked.cache_read !== undefined)
        expect(one({ cache_read: 100_000 }), alias.id).toBe(tenth(alias.checked.cache_read));
    }
  });

  test('a model nobody prices is unknown, never 0', () => {
    for (const model of ['qwen3-coder-plus', 'fake-model', '<synthetic>', 'opus'])
      expect(usd({ harness: 'qwen', model, tokens: { input: 10, output: 10 } }), model).toBeUndefined();
  });
});

describe('overrides', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'harness-events-prices-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a file's prices win over the table's, and price what it misses (cache without a price: input's)", async () => {
    const file = join(dir, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({ 'fake-model': { input: 1, output: 2 }, 'GPT-5': { input: 0, output: 0, cache_read: 0 } }),
    );
    const own = await loadPriceTable({ overrides: file });
    // 500,000 x 1 + 100,000 x 1 + 250,000 x 2 + 50,000 x 2 = 1,200,000 per million.
    const tokens = { input: 500_000, cache_read: 100_000, output: 250_000, reasoning: 50_000 };
    expect(roundUsd(own.usd({ model: 'fake-model', tokens })!)).toBe(1.2);
    expect(own.usd({ harness: 'codex', model: 'gpt-5', tokens })).toBe(0);
    expect(roundUsd(own.usd({ harness: 'claude-code', model: 'claude-haiku-4-5', tokens: { output: 1000 } })!)).toBe(
      0.005,
    );
  });

  test.each([
    ['not JSON', '{', /prices\.json: not a JSON file of prices/],
    ['an array', '[]', /not an object of model name -> prices/],
    ['a string of prices', '{"m": "cheap"}', /"m": not an object of USD per million tokens by class/],
    ['an unknown class', '{"m": {"input": 1, "output": 1, "audio": 2}}', /"m": audio is not a token class/],
    ['a negative price', '{"m": {"input": -1, "output": 1}}', /"m": input is not a price/],
    ['no output price', '{"m": {"input": 1}}', /"m": input and output prices are needed/],
  ])('a file that is %s is an error naming the file and the model', async (_, content, message) => {
    const file = join(dir, 'prices.json');
    writeFileSync(file, content);
    await expect(loadPriceTable({ overrides: file })).rejects.toThrow(message);
  });
});

test('a missing peer is one line naming the package and the command that installs it', async () => {
  const name = 'harness-events-no-such-package';
  await expect(importPrices(() => import(name), name)).rejects.toThrow(missingPrices());
  expect(missingPrices().message).toBe(
    'pricing tokens needs the package @pydantic/genai-prices, not installed: ' +
      "npm install '@pydantic/genai-prices@^0.1.8'",
  );
  const broken = new SyntaxError('Unexpected token');
  await expect(importPrices(() => Promise.reject(broken))).rejects.toBe(broken);
});

test('only loadPriceTable imports the peer, when called: nothing in lib/ imports it statically', () => {
  const files = readdirSync(new URL('lib', root), { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.ts'),
  );
  const naming = files.filter((file) =>
    readFileSync(new URL(`lib/${file}`, root), 'utf8').includes(pricesPackage.name),
  );
  expect(naming).toEqual(['runtime/usage/prices.ts']);
  const source = readFileSync(new URL('lib/runtime/usage/prices.ts', root), 'utf8');
  expect(source.match(/import\s*\(\s*'@pydantic\/genai-prices'\s*\)/g)).toHaveLength(2);
  expect(source).not.toMatch(/from\s+'@pydantic\/genai-prices'/);
});
