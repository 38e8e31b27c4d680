// Stands in for one run of live/usage.live.ts's Codex plan (test/fixtures/codex/usage/resume-fork/): `codex exec`,
// `exec resume ID` or `exec fork ID`, as the real CLI wrote it. node codex-usage.mjs DIR RUN [ephemeral]: prints
// stdout-RUN.jsonl's thread.started; writes its thread's rollout and its sub-agents' under $CODEX_HOME/sessions/
// (today's folder): the lines written before the run started (runs.json) as they were, and the run's own lines with
// their time made now, as the CLI writes them; then prints the rest of its stdout. With `ephemeral`, no rollout.
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, run, mode] = process.argv.slice(2);
const lines = (file) =>
  readFileSync(file, 'utf8')
    .split(/(?<=\n)/)
    .filter((line) => line.trim() !== '');
const stdout = lines(join(dir, `stdout-${run}.jsonl`));
const runs = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8'));
const started = Date.parse(runs[Number(run) - 1].started);
const threadId = JSON.parse(stdout[0]).thread_id;
let day = join(dir, 'home', '.codex', 'sessions');
for (let depth = 0; depth < 3; depth++) day = join(day, readdirSync(day)[0]);
const next = runs[Number(run)] === undefined ? Infinity : Date.parse(runs[Number(run)].started);
const before = (file) => lines(join(day, file)).filter((line) => Date.parse(JSON.parse(line).timestamp) < next);
const parentOf = (file) =>
  JSON.parse(lines(join(day, file))[0]).payload.source?.subagent?.thread_spawn?.parent_thread_id;
// The thread's rollout, then its sub-agents' (a rollout each, naming the thread as its parent).
const names = readdirSync(day).filter((file) => file.endsWith(`-${threadId}.jsonl`));
names.push(...readdirSync(day).filter((file) => parentOf(file) === threadId && before(file).length > 0));

process.stdout.write(stdout.shift());
if (mode !== 'ephemeral') {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  const folder = join(process.env.CODEX_HOME, 'sessions', String(now.getFullYear()), pad(now.getMonth() + 1));
  for (const name of names) {
    const file = join(folder, pad(now.getDate()), name);
    mkdirSync(join(file, '..'), { recursive: true });
    for (const line of before(name)) {
      const record = JSON.parse(line);
      if (Date.parse(record.timestamp) >= started) record.timestamp = new Date().toISOString();
      appendFileSync(file, JSON.stringify(record) + '\n');
    }
  }
}
for (const line of stdout) process.stdout.write(line);
