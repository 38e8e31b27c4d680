// Stands in for `codex exec --json`: replays a paired capture (test/fixtures/codex/transcripts/<scenario>/) as the
// real CLI wrote it: stdout's thread.started, then the rollout under $CODEX_HOME/sessions/YYYY/MM/DD/ appended line
// by line (each of its item lines followed by stdout's next item, each refusal by its stderr line), then the rest of
// stdout; each rollout line's time is the time it is written, as Codex's. node codex-rollout.mjs SCENARIO_DIR
// [ephemeral]: with `ephemeral`, no rollout is written. LINGER_MS: a run that takes that long after thread.started (the
// library looks for a rollout meanwhile). The other threads' rollouts (sub-agents') are written whole after
// thread.started.
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, mode] = process.argv.slice(2);
const lines = (file) =>
  readFileSync(file, 'utf8')
    .split(/(?<=\n)/)
    .filter((line) => line.trim() !== '');
const stdout = lines(join(dir, 'stdout.jsonl'));
const stderr = lines(join(dir, 'stderr.txt')).filter((line) => line.includes('tools::router'));
const threadId = JSON.parse(stdout[0]).thread_id;
const day = (() => {
  let path = join(dir, 'home', '.codex', 'sessions');
  for (let depth = 0; depth < 3; depth++) path = join(path, readdirSync(path)[0]);
  return path;
})();
const rollout = lines(
  join(
    day,
    readdirSync(day).find((name) => name.endsWith(`-${threadId}.jsonl`)),
  ),
);
// A line as Codex writes it now: its `timestamp` is its time of writing (the library counts a run's rows by it).
const stamped = (line) => line.replace(/^\{"timestamp":"[^"]*"/, `{"timestamp":"${new Date().toISOString()}"`);
const others = readdirSync(day).filter((name) => name.startsWith('rollout-') && !name.endsWith(`-${threadId}.jsonl`));

process.stdout.write(stdout.shift());
if (process.env.LINGER_MS) await new Promise((resolve) => setTimeout(resolve, Number(process.env.LINGER_MS)));
const now = new Date();
const pad = (n) => String(n).padStart(2, '0');
const sessions = join(process.env.CODEX_HOME, 'sessions', String(now.getFullYear()), pad(now.getMonth() + 1));
const file = join(sessions, pad(now.getDate()), `rollout-2026-12-05T05-48-37-${threadId}.jsonl`);
if (mode !== 'ephemeral') {
  mkdirSync(join(file, '..'), { recursive: true });
  for (const name of others) appendFileSync(join(file, '..', name), lines(join(day, name)).map(stamped).join(''));
}
for (const line of rollout) {
  if (mode !== 'ephemeral') appendFileSync(file, stamped(line));
  if (line.includes('"type":"item_completed"') && !line.includes('"UserMessage"')) {
    // stdout's item for it, with any item.started before it.
    while (stdout.length > 0) {
      const next = stdout.shift();
      process.stdout.write(next);
      if (next.includes('"item.completed"')) break;
    }
  }
  if (/"output":"(patch rejected|approval policy is Never)/.test(line) && stderr.length > 0)
    process.stderr.write(stderr.shift());
}
for (const line of stdout) process.stdout.write(line);
