// A session being written, for the follow tests: appends real transcripts to their targets in the
// chunks the test asks for, one command per stdin line, and answers each with what it did:
//   next         append the next chunk (lines cut in the middle) -> "wrote <complete lines so far> more|all"
//   truncate     empty the first target                          -> "truncated"
//   delete       remove the first target                         -> "deleted"
//   rewrite FILE FILE written over the first target in place: O_TRUNC, then one write      -> "rewritten"
// Arguments: SOURCE TARGET [SOURCE TARGET ...]. With several files (a session and its subagents'), their lines are
// written in the order of their records' `timestamp` (a line without one keeps its file's last time; on equal times
// the earlier file first), each target created when its first line is written.
import { appendFileSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const files = [];
for (let i = 0; i < args.length; i += 2) {
  let time = '';
  const lines = readFileSync(args[i], 'utf8')
    .split(/(?<=\n)/)
    .map((text) => {
      try {
        time = JSON.parse(text).timestamp ?? time;
      } catch {
        // Not JSON: it keeps its file's time.
      }
      return { target: args[i + 1], text, time };
    });
  files.push(lines);
}
const ordered = [];
while (files.some((lines) => lines.length > 0)) {
  let first = -1;
  for (let f = 0; f < files.length; f++)
    if (files[f].length > 0 && (first === -1 || files[f][0].time < files[first][0].time)) first = f;
  ordered.push(files[first].shift());
}
// Each step: the second half of one line and the first half of the next, so every write ends mid-line.
const steps = [];
let carry;
for (const line of ordered) {
  const middle = Math.ceil(line.text.length / 2);
  steps.push([...(carry ? [carry] : []), { target: line.target, text: line.text.slice(0, middle) }]);
  carry = { target: line.target, text: line.text.slice(middle) };
}
steps.push(carry ? [carry] : []);
let next = 0;
let complete = 0;
for await (const command of createInterface({ input: process.stdin })) {
  if (command === 'next') {
    for (const { target, text } of steps[next++] ?? []) {
      mkdirSync(dirname(target), { recursive: true });
      appendFileSync(target, text);
      complete += (text.match(/\n/g) ?? []).length;
    }
    process.stdout.write(`wrote ${complete} ${next >= steps.length ? 'all' : 'more'}\n`);
  } else if (command === 'truncate') {
    truncateSync(args[1], 0);
    process.stdout.write('truncated\n');
  } else if (command.startsWith('rewrite ')) {
    writeFileSync(args[1], readFileSync(command.slice('rewrite '.length)));
    process.stdout.write('rewritten\n');
  } else if (command === 'delete') {
    rmSync(args[1]);
    process.stdout.write('deleted\n');
  }
}
