// A session being written, for the follow tests: appends a real transcript to TARGET in the
// chunks the test asks for, one command per stdin line, and answers each with what it did:
//   next         append the next chunk (lines cut in the middle) -> "wrote <complete lines so far>"
//   truncate     empty the file                                  -> "truncated"
//   delete       remove the file                                 -> "deleted"
import { appendFileSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [source, target] = process.argv.slice(2);
const lines = readFileSync(source, 'utf8').split(/(?<=\n)/);
// Each chunk: the second half of one line and the first half of the next, so every write ends mid-line.
const chunks = [];
let carry = '';
for (const line of lines) {
  const middle = Math.ceil(line.length / 2);
  chunks.push(carry + line.slice(0, middle));
  carry = line.slice(middle);
}
chunks.push(carry);
let next = 0;
let complete = 0;
for await (const command of createInterface({ input: process.stdin })) {
  if (command === 'next') {
    const chunk = chunks[next++] ?? '';
    appendFileSync(target, chunk);
    complete += (chunk.match(/\n/g) ?? []).length;
    process.stdout.write(`wrote ${complete} ${next >= chunks.length ? 'all' : 'more'}\n`);
  } else if (command === 'truncate') {
    truncateSync(target, 0);
    process.stdout.write('truncated\n');
  } else if (command === 'delete') {
    rmSync(target);
    process.stdout.write('deleted\n');
  }
}
