/**
 * tailSession on real files: a session's main file and a subagent's, written by the test between
 * the reads it makes, so each step is a handshake (nothing waits on a clock). Lines are never cut
 * across files: a partial line waits for its end, and a long one holds the other files back.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { session as claudeCode } from '../../../lib/harnesses/claude-code/session.js';
import { TailNotice } from '../../../lib/runtime/sessions/tail.js';
import { tailSession } from '../../../lib/runtime/sessions/tail-session.js';

const id = '42a3ead3-e740-40f9-af59-f65838abac3a';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function files() {
  const dir = mkdtempSync(join(tmpdir(), 'harness-events-tail-'));
  dirs.push(dir);
  const main = join(dir, `${id}.jsonl`);
  const agent = join(dir, id, 'subagents', 'agent-a1.jsonl');
  writeFileSync(main, '');
  mkdirSync(join(dir, id, 'subagents'), { recursive: true });
  writeFileSync(agent, '');
  return { main, agent };
}

const options = { quietMs: 60_000, endGraceMs: 0, pollMs: 60_000, ended: () => false };

/** Reads until `bytes` more bytes have come, returning them as text. */
async function take(chunks: AsyncGenerator<Buffer | TailNotice>, bytes: number): Promise<string> {
  let text = '';
  while (Buffer.byteLength(text) < bytes) {
    const next = await chunks.next();
    if (next.done === true || next.value instanceof TailNotice) throw new Error('the tail ended early');
    text += next.value.toString('utf8');
  }
  return text;
}

test("a partial line waits for its end; another file's whole line goes first", async () => {
  const { main, agent } = files();
  const chunks = tailSession(claudeCode, main, options);
  try {
    appendFileSync(main, '{"type":"user","n":');
    appendFileSync(agent, '{"type":"assistant"}\n');
    expect(await take(chunks, 21)).toBe('{"type":"assistant"}\n');
    appendFileSync(main, '1}\n');
    expect(await take(chunks, 22)).toBe('{"type":"user","n":1}\n');
  } finally {
    await chunks.return(undefined);
  }
});

test('a line longer than 1 MiB goes on as it comes, and the other files wait until it ends', async () => {
  const { main, agent } = files();
  const chunks = tailSession(claudeCode, main, options);
  const long = `{"text":"${'x'.repeat(2 << 20)}`;
  try {
    appendFileSync(main, long);
    expect(await take(chunks, Buffer.byteLength(long))).toBe(long);
    appendFileSync(agent, '{"type":"assistant"}\n');
    appendFileSync(main, '"}\n{"type":"user"}\n');
    // The long line's end comes before the subagent's line written before it.
    expect(await take(chunks, 3 + 16)).toBe('"}\n{"type":"user"}\n');
    expect(await take(chunks, 21)).toBe('{"type":"assistant"}\n');
  } finally {
    await chunks.return(undefined);
  }
});
