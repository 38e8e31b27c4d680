/**
 * The usage ledger (docs/usage.md "Ledger"): a JSONL file of accounted calls, one per line, appended to by each
 * `usage --ledger FILE` and read back by the next, so calls are counted once across invocations and outlive the
 * agents' own files (Claude Code deletes its transcripts after 30 days).
 */
import { createReadStream } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { isObject } from '../../kernel/json.js';
import type { UsageCall } from './call.js';

/**
 * The version of a ledger line's shape: 2 since a line may be a run's tokens no call itemizes (`unitemized: true`,
 * not a call); a line of version 1 (always a call) is read too.
 */
export const LEDGER_VERSION = 2;

/** A ledger line's call, or undefined when the line is not one. */
function callOf(line: string): UsageCall | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value) || (value.v !== 1 && value.v !== LEDGER_VERSION) || !isObject(value.tokens)) return undefined;
  const { v: _v, ...call } = value;
  const fields = ['id', 'harness', 'at'] as const;
  return fields.every((name) => typeof call[name] === 'string') ? (call as unknown as UsageCall) : undefined;
}

/** The calls of a ledger (none when it does not exist yet); a line that is not a call is a warning. */
export async function* ledgerCalls(path: string, warn: (message: string) => void): AsyncGenerator<UsageCall> {
  const input = createReadStream(path);
  const missing = new Promise<boolean>((done) => {
    input.once('open', () => done(false));
    input.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ENOENT'));
  });
  if (await missing) return;
  let number = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    number++;
    if (line.trim() === '') continue;
    const call = callOf(line);
    if (call === undefined) warn(`ledger ${JSON.stringify(path)} line ${number} is not a call: left out`);
    else yield call;
  }
}

/** Appends calls to a ledger (making it when it is not there). */
export async function appendLedger(path: string, calls: readonly UsageCall[]): Promise<void> {
  if (calls.length === 0) return;
  await appendFile(path, calls.map((call) => JSON.stringify({ v: LEDGER_VERSION, ...call }) + '\n').join(''));
}
