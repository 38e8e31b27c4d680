// Plays a script of steps given as JSON: {"out": text} to stdout, {"err": text} to stderr,
// {"wait": true} (reads one line from stdin: the test's go-ahead), {"sleep": ms} (a pause of
// at least that long, never a way to order anything), {"exit": code},
// {"kill": signal} (kills itself), {"hang": true} (waits forever), {"ignore": signal} (ignores
// it from then on), {"trap": signal} (prints {"trapped":signal} on stdout for each, and goes on),
// {"spawn": [cmd, ...args]} (starts a grandchild and prints its pid on stdout as
// {"type":"grandchild","pid":N}), {"spawn": [...], "inherit": true} (a grandchild that shares
// stdout and stderr: it speaks for itself, and keeps them open while it lives), {"spawn": [...], "detached": true}
// (a grandchild in a session of its own, as Cline starts its commands; its pid printed likewise).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

const write = (stream, text) =>
  new Promise((resolve) => (stream.write(text) ? resolve() : stream.once('drain', resolve)));
let stdinLines;
for (const step of JSON.parse(process.argv[2])) {
  if ('out' in step) await write(process.stdout, step.out);
  else if ('err' in step) await write(process.stderr, step.err);
  else if ('sleep' in step) await sleep(step.sleep);
  else if ('wait' in step)
    await (stdinLines ??= createInterface({ input: process.stdin })[Symbol.asyncIterator]()).next();
  else if ('ignore' in step) process.on(step.ignore, () => {});
  else if ('trap' in step)
    process.on(step.trap, () => process.stdout.write(JSON.stringify({ trapped: step.trap }) + '\n'));
  else if ('spawn' in step && step.inherit)
    spawn(step.spawn[0], step.spawn.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
  else if ('spawn' in step) {
    const child = spawn(step.spawn[0], step.spawn.slice(1), { stdio: 'ignore', detached: step.detached === true });
    await write(process.stdout, JSON.stringify({ type: 'grandchild', pid: child.pid }) + '\n');
  } else if ('kill' in step) process.kill(process.pid, step.kill);
  else if ('hang' in step) setInterval(() => {}, 1 << 30);
  else if ('exit' in step) process.exit(step.exit);
}
// Done with the test's go-aheads: an open stdin must not keep the script alive.
if (stdinLines) process.stdin.destroy();
