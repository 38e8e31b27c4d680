/**
 * The price table: `@pydantic/genai-prices` (an optional peer, imported when a table is loaded, never by the core
 * entry point: it takes about 0.4 s), our alias table for names it misses, and a user's overrides (docs/library.md
 * "Prices and costs").
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Tokens } from '../../kernel/events.js';
import { aliasOf } from './price-aliases.js';

/** The peer and the versions package.json allows. */
export const pricesPackage = { name: '@pydantic/genai-prices', range: '^0.1.8' } as const;

/**
 * The date of each release's data (its newest price change; the package names none): a test fails when the
 * installed version is missing here. A release not listed gives a table without a date.
 */
export const dataDates: Readonly<Record<string, string>> = { '0.1.8': '2026-09-22' };

/** USD per million tokens of each class; a cache or reasoning class without a price is paid as input or output. */
export interface ClassPrices {
  /** Input tokens not read from a cache. */
  input: number;
  /** Output tokens. */
  output: number;
  /** Input tokens read from the cache (default: the input price). */
  cache_read?: number;
  /** Input tokens written to the cache (default: the input price). */
  cache_write?: number;
  /** Reasoning tokens reported apart from the output (default: the output price). */
  reasoning?: number;
}

/** One model call (or a run's total, for harnesses that report only that) to price. */
export interface PricedCall {
  /** The harness, which names the provider its bare model names mean (`claude-code`: Anthropic). */
  harness?: string;
  /** The model's name as the CLI reported it (a `provider/` prefix is understood). */
  model: string;
  /** The call's tokens, by class (docs/events.md). */
  tokens: Tokens;
  /** When the call was made: prices that changed on a date apply from it. Default: now. */
  at?: Date;
}

/** Prices tokens (`loadPriceTable()`): the peer's data, our aliases and the user's overrides. */
export interface PriceTable {
  /** The date of the table's data (absent for a release of the peer this library does not know). */
  readonly date?: string;
  /** The peer's version. */
  readonly version?: string;
  /** The call's price in USD, or undefined when neither the overrides nor the table know the model. */
  usd(call: PricedCall): number | undefined;
}

/** What `loadPriceTable` takes. */
export interface LoadPriceTableOptions {
  /** A JSON file (or its parsed content) of model name -> ClassPrices: these win over the table. */
  overrides?: string | Readonly<Record<string, ClassPrices>>;
}

/** The provider a harness's bare model names belong to, where it has one. */
const harnessProviders: Readonly<Record<string, string>> = {
  'claude-code': 'anthropic',
  codex: 'openai',
  gemini: 'google',
};

type Prices = typeof import('@pydantic/genai-prices');

/** The error for a missing peer: one line naming the package and how to install it. */
export function missingPrices(): Error {
  const { name, range } = pricesPackage;
  return new Error(`pricing tokens needs the package ${name}, not installed: npm install '${name}@${range}'`);
}

/** `load()` (an import of the peer), with a missing package turned into `missingPrices()`. */
export async function importPrices<T>(load: () => Promise<T>, name: string = pricesPackage.name): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${name}'`)) throw missingPrices();
    throw error;
  }
}

/** Loads the table. Throws `missingPrices()` when the peer is not installed, and names a bad overrides file. */
export async function loadPriceTable(options: LoadPriceTableOptions = {}): Promise<PriceTable> {
  const overrides = readOverrides(options.overrides);
  const prices = await importPrices(() => import('@pydantic/genai-prices'));
  const version = installedVersion();
  const date = version === undefined ? undefined : dataDates[version];
  return {
    ...(date === undefined ? {} : { date }),
    ...(version === undefined ? {} : { version }),
    usd: (call) => {
      const own = overrides.get(call.model.toLowerCase());
      return own === undefined ? tablePrice(prices, call) : priceByClass(own, call.tokens);
    },
  };
}

/** The call priced by the peer's table: the model under the harness's provider, a `provider/` prefix, an alias. */
function tablePrice(prices: Prices, call: PricedCall): number | undefined {
  const usage = usageOf(call.tokens);
  const timestamp = call.at ?? new Date();
  const slash = call.model.indexOf('/');
  const alias = aliasOf(call.model);
  const tries: [string, string | undefined][] = [
    [call.model, harnessProviders[call.harness ?? '']],
    ...(slash > 0 ? [[call.model.slice(slash + 1), call.model.slice(0, slash)] as [string, string]] : []),
    [call.model, undefined],
    ...(alias === undefined ? [] : [[alias.model, alias.provider] as [string, string]]),
  ];
  for (const [model, providerId] of tries) {
    const price = prices.calcPrice(usage, model, { timestamp, ...(providerId === undefined ? {} : { providerId }) });
    if (price !== null) return price.total_price;
  }
  return undefined;
}

/**
 * Our classes in the table's terms: its input and output are totals with cache reads and writes, and reasoning,
 * as parts of them; ours are apart (docs/events.md, the token classes).
 */
export function usageOf(tokens: Tokens): Record<string, number> {
  const { input = 0, output = 0, cache_read = 0, cache_write = 0, reasoning = 0 } = tokens;
  return {
    input_tokens: input + cache_read + cache_write,
    cache_read_tokens: cache_read,
    cache_write_tokens: cache_write,
    output_tokens: output + reasoning,
    output_reasoning_tokens: reasoning,
  };
}

/** A call priced by a user's own per-class prices. */
export function priceByClass(prices: ClassPrices, tokens: Tokens): number {
  const { input = 0, output = 0, cache_read = 0, cache_write = 0, reasoning = 0 } = tokens;
  const perMillion =
    input * prices.input +
    cache_read * (prices.cache_read ?? prices.input) +
    cache_write * (prices.cache_write ?? prices.input) +
    output * prices.output +
    reasoning * (prices.reasoning ?? prices.output);
  return perMillion / 1_000_000;
}

const classNames = ['input', 'output', 'cache_read', 'cache_write', 'reasoning'];

/** The overrides by lower-cased model name; a file that is not a valid one is an error naming what is wrong. */
function readOverrides(source: LoadPriceTableOptions['overrides']): Map<string, ClassPrices> {
  if (source === undefined) return new Map();
  const where = typeof source === 'string' ? source : 'price overrides';
  let content: unknown = source;
  if (typeof source === 'string') {
    try {
      content = JSON.parse(readFileSync(source, 'utf8'));
    } catch (error) {
      throw new Error(`${where}: not a JSON file of prices (${(error as Error).message})`, { cause: error });
    }
  }
  if (!isObject(content)) throw new Error(`${where}: not an object of model name -> prices`);
  const overrides = new Map<string, ClassPrices>();
  for (const [model, prices] of Object.entries(content)) {
    const bad = (what: string) => new Error(`${where}: ${JSON.stringify(model)}: ${what}`);
    if (!isObject(prices)) throw bad('not an object of USD per million tokens by class');
    for (const [name, value] of Object.entries(prices)) {
      if (!classNames.includes(name)) throw bad(`${name} is not a token class (${classNames.join(', ')})`);
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw bad(`${name} is not a price`);
    }
    if (prices.input === undefined || prices.output === undefined) throw bad('input and output prices are needed');
    overrides.set(model.toLowerCase(), prices as unknown as ClassPrices);
  }
  return overrides;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The installed peer's version, read from its package.json where Node.js finds it from here. */
function installedVersion(): string | undefined {
  const lookup = createRequire(import.meta.url).resolve;
  for (const dir of lookup.paths(pricesPackage.name) ?? []) {
    const file = join(dir, pricesPackage.name, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
  }
  return undefined;
}
