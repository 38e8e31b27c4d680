/**
 * Plays `codex exec --json` for bench/codex-join.ts:
 * node bench/codex-join-child.mjs <mode> <calls> <gapMs> <timesFile>.
 * stdout's thread.started, then (unless mode is `stdout-only`) the rollout under $CODEX_HOME/sessions/YYYY/MM/DD/, then
 * one command every gapMs: `stdout-first` writes stdout's item, then the rollout's item of it; `rollout-first` the
 * reverse; `itemless` only the rollout's raw call and output (a call no item reports); `stdout-only` stdout's item.
 * The time each call's first line was written (Date.now(), ms: one clock for both processes) goes to timesFile as JSON.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [mode, callsText, gapText, timesFile] = process.argv.slice(2);
const calls = Number(callsText);
const gap = Number(gapText);
const thread = '01a244bf-4d50-7770-8b13-000000000001';
const now = () => Date.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const line = (record) => JSON.stringify(record) + '\n';

process.stdout.write(line({ type: 'thread.started', thread_id: thread }));
process.stdout.write(line({ type: 'turn.started' }));
const date = new Date();
const pad = (n) => String(n).padStart(2, '0');
const day = join(process.env.CODEX_HOME, 'sessions', String(date.getFullYear()), pad(date.getMonth() + 1));
const rollout = join(day, pad(date.getDate()), `rollout-bench-${thread}.jsonl`);
const write = (record) => appendFileSync(rollout, line({ timestamp: new Date().toISOString(), ...record }));
if (mode !== 'stdout-only') {
  mkdirSync(join(rollout, '..'), { recursive: true });
  write({ type: 'session_meta', payload: { id: thread, cwd: '/bench' } });
  write({ type: 'turn_context', payload: { cwd: '/bench' } });
}

const times = [];
for (let i = 0; i < calls; i++) {
  await sleep(gap);
  const cmd = `make c${i}`;
  const id = `call_${i}`;
  const stdoutItem = () =>
    process.stdout.write(
      line({
        type: 'item.completed',
        item: {
          id: `item_${i}`,
          type: 'command_execution',
          command: `/bin/bash -lc '${cmd}'`,
          exit_code: 0,
          status: 'completed',
        },
      }),
    );
  const rolloutItem = () =>
    write({
      type: 'event_msg',
      payload: {
        type: 'item_completed',
        item: {
          type: 'CommandExecution',
          id,
          command: ['/bin/bash', '-lc', cmd],
          cwd: 'file:///bench/sub',
          exit_code: 0,
          status: 'completed',
        },
      },
    });
  times.push(now());
  if (mode === 'itemless') {
    write({
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'exec_command',
        call_id: id,
        arguments: JSON.stringify({ cmd, workdir: 'sub' }),
      },
    });
    write({
      type: 'response_item',
      payload: { type: 'function_call_output', call_id: id, output: 'Process exited with code 0\nOutput:\n' },
    });
  } else if (mode === 'rollout-first') {
    rolloutItem();
    stdoutItem();
  } else {
    stdoutItem();
    if (mode === 'stdout-first') rolloutItem();
  }
}
writeFileSync(timesFile, JSON.stringify(times));
process.stdout.write(line({ type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } }));
