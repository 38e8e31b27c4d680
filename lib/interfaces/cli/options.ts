/**
 * The options of `normalize`, `run`, `view` and `report`: one parser for all four, each refusing what it does not
 * take, and the checks they share (one FILE at most, --format, --harness and the size limits).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { harnesses, isHarnessName } from '../../runtime/registry.js';
import type { NormalizeOptions } from '../../runtime/normalizer.js';
import { fromFlags, publishFlags } from './jetstream.js';
import { sessionFlags } from './session-input.js';
import { UsageError } from './usage-error.js';

/** The size limits, by flag and by the option of `createNormalizer` each sets. */
const sizeOptions = {
  'max-line-bytes': 'maxLineBytes',
  'max-pending-tools': 'maxPendingTools',
  'max-pending-bytes': 'maxPendingBytes',
  'max-span-bytes': 'maxSpanBytes',
  'stream-lines-above': 'streamLinesAbove',
} as const;

/** The options of a run started from a prompt (`run --prompt`; acp also `--agent`). */
const launchFlags = ['prompt', 'model', 'agent', 'permissions'];

/** The options each command takes; any other is a usage error. Its --help lists the same (help.test.ts). */
export const commandOptions = {
  normalize: [
    'harness',
    'cwd',
    'env',
    'strict',
    'metrics',
    'format',
    'color',
    ...Object.keys(sizeOptions),
    ...Object.keys(publishFlags),
    'session',
    'otlp',
  ],
  run: [
    'harness',
    'cwd',
    'strict',
    'metrics',
    'format',
    'color',
    'kill-grace-ms',
    'timeout',
    'max-cost',
    'max-tokens',
    'prices',
    ...Object.keys(sizeOptions),
    ...Object.keys(publishFlags),
    ...launchFlags,
    'otlp',
  ],
  view: ['cwd', 'color', 'stream', 'run', ...Object.keys(fromFlags), 'harness', 'session'],
  report: ['harness', 'cwd', 'strict', 'metrics', 'format', 'output', ...Object.keys(sizeOptions), 'session'],
};

/** A command's options and FILE; an option it does not take is a usage error (`--help` is every command's). */
export function parse(args: string[], command: keyof typeof commandOptions) {
  const parsed = parseOptions(args);
  for (const name of Object.keys(parsed.values)) {
    if (name !== 'help' && !commandOptions[command].includes(name))
      throw new UsageError(`${command} does not take --${name} (see harness-events --help)`);
  }
  return parsed;
}

function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        harness: { type: 'string' },
        cwd: { type: 'string' },
        env: { type: 'string', multiple: true },
        strict: { type: 'boolean' },
        metrics: { type: 'string' },
        'max-line-bytes': { type: 'string' },
        'max-pending-tools': { type: 'string' },
        'max-pending-bytes': { type: 'string' },
        'max-span-bytes': { type: 'string' },
        'stream-lines-above': { type: 'string' },
        'kill-grace-ms': { type: 'string' },
        timeout: { type: 'string' },
        'max-cost': { type: 'string' },
        'max-tokens': { type: 'string' },
        prices: { type: 'string' },
        prompt: { type: 'string' },
        agent: { type: 'string' },
        permissions: { type: 'string' },
        model: { type: 'string' },
        format: { type: 'string' },
        color: { type: 'boolean' },
        output: { type: 'string', short: 'o' },
        otlp: { type: 'string' },
        ...publishFlags,
        ...fromFlags,
        ...sessionFlags,
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `--env NAME=VALUE`, repeatable: the harness process's environment, as far as it is given. */
function environment(pairs: string[] | undefined): NodeJS.ProcessEnv | undefined {
  if (pairs === undefined) return undefined;
  const env: NodeJS.ProcessEnv = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--env takes NAME=VALUE, got "${pair}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

export type Values = ReturnType<typeof parse>['values'];

export function oneFile(positionals: string[]): string | undefined {
  if (positionals.length > 1) throw new UsageError(`one input file at most, got ${positionals.length}`);
  return positionals[0];
}

export function formatOf(values: Values, formats: string[]): string {
  const format = values.format ?? formats[0]!;
  if (!formats.includes(format)) throw new UsageError(`--format takes ${formats.join(' or ')}, got "${format}"`);
  return format;
}

/** --harness (required), --cwd, --env, --strict and the size limits, as `createNormalizer` takes them. */
export function normalizeOptions(values: Values): NormalizeOptions {
  if (values.harness === undefined) throw new UsageError('--harness is required (see harness-events --help)');
  const harness = values.harness;
  if (!isHarnessName(harness) && harness !== 'auto')
    throw new UsageError(`unknown harness "${harness}" (known: ${[...harnesses.keys()].join(', ')}, or auto)`);
  const options: NormalizeOptions = {
    harness,
    cwd: values.cwd === undefined ? undefined : resolve(values.cwd),
    strict: values.strict,
    env: environment(values.env),
  };
  for (const [flag, key] of Object.entries(sizeOptions)) {
    const text = values[flag as keyof typeof sizeOptions];
    if (text === undefined) continue;
    // Beyond 2^53 the digits no longer name one number: refused here, not a RangeError from the library.
    if (!/^[1-9]\d*$/.test(text) || !Number.isSafeInteger(Number(text)))
      throw new UsageError(`--${flag} takes a positive integer up to ${Number.MAX_SAFE_INTEGER}, got "${text}"`);
    options[key] = Number(text);
  }
  return options;
}
