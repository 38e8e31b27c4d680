// The tighter floor the team set for issue 20 (copied from the project's shared bench folder,
// ../shared/bench/floor.mjs, unchanged below this header): what a user could write in ten lines.
// node bench/floor-readline.mjs FILE > /dev/null
// The floor: readline + JSON.parse + JSON.stringify of one small object per line + write to stdout.
import fs from 'node:fs';
import readline from 'node:readline';
const rl = readline.createInterface({ input: fs.createReadStream(process.argv[2]), crlfDelay: Infinity });
let buf = [];
for await (const line of rl) {
  if (!line) continue;
  const o = JSON.parse(line);
  buf.push(JSON.stringify({ type: 'x', timestamp: new Date().toISOString(), raw: o.type }));
  if (buf.length >= 256) {
    if (!process.stdout.write(buf.join('\n') + '\n')) await new Promise((r) => process.stdout.once('drain', r));
    buf = [];
  }
}
process.stdout.write(buf.join('\n') + '\n');
