// Plays a script of steps given as JSON: {"out": text} to stdout, {"err": text} to stderr,
// {"sleep": ms}, {"exit": code}, {"kill": signal} (kills itself), {"hang": true} (waits forever),
// {"ignore": signal} (ignores it from then on), {"spawn": [cmd, ...args]} (starts a grandchild
// and prints its pid on stdout as {"type":"grandchild","pid":N}).
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const write = (stream, text) => new Promise((resolve) => (stream.write(text) ? resolve() : stream.once('drain', resolve)));
for (const step of JSON.parse(process.argv[2])) {
  if ('out' in step) await write(process.stdout, step.out);
  else if ('err' in step) await write(process.stderr, step.err);
  else if ('sleep' in step) await sleep(step.sleep);
  else if ('ignore' in step) process.on(step.ignore, () => {});
  else if ('spawn' in step) {
    const child = spawn(step.spawn[0], step.spawn.slice(1), { stdio: 'ignore' });
    await write(process.stdout, JSON.stringify({ type: 'grandchild', pid: child.pid }) + '\n');
  } else if ('kill' in step) process.kill(process.pid, step.kill);
  else if ('hang' in step) setInterval(() => {}, 1 << 30);
  else if ('exit' in step) process.exit(step.exit);
}
