// Stands in for `codex exec --json` whose stdout runs ahead of its rollout: it prints a command and then an agent
// message, a refusal on stderr, and only after HELD_MS (default 300) writes the command's line to the rollout under
// $CODEX_HOME/sessions/YYYY/MM/DD/ (it ran in `sub` of the run's directory); then it prints the turn's end.
// node codex-held.mjs
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const thread = '01a2aaaa-0000-7000-8000-000000000001';
const now = new Date();
const pad = (n) => String(n).padStart(2, '0');
const day = join(process.env.CODEX_HOME, 'sessions', String(now.getFullYear()), pad(now.getMonth() + 1));
const file = join(day, pad(now.getDate()), `rollout-2026-12-05T22-00-00-${thread}.jsonl`);
const out = (record) => process.stdout.write(JSON.stringify(record) + '\n');
const line = (type, payload) =>
  appendFileSync(file, JSON.stringify({ timestamp: new Date().toISOString(), type, payload }) + '\n');

out({ type: 'thread.started', thread_id: thread });
mkdirSync(join(file, '..'), { recursive: true });
line('session_meta', { id: thread, cwd: process.cwd() });
line('turn_context', { cwd: process.cwd(), model: 'gpt-5.5' });
out({ type: 'turn.started' });
const command = { id: 'item_0', type: 'command_execution', command: "/bin/bash -lc 'make b'", exit_code: 0 };
out({ type: 'item.completed', item: { ...command, aggregated_output: '', status: 'completed' } });
out({ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'Listed.' } });
process.stderr.write(
  'ERROR codex_core::tools::router: error=patch rejected: writing is blocked by read-only sandbox; rejected by user\n',
);
await new Promise((resolve) => setTimeout(resolve, Number(process.env.HELD_MS ?? 300)));
const ran = { type: 'CommandExecution', id: 'call_0', command: ['/bin/bash', '-lc', 'make b'], exit_code: 0 };
line('event_msg', {
  type: 'item_completed',
  item: { ...ran, cwd: `file://${join(process.cwd(), 'sub')}`, status: 'completed' },
});
out({ type: 'turn.completed', usage: { input_tokens: 10, cached_input_tokens: 0, output_tokens: 5 } });
