// A program that embeds spawnHarness and handles no signal itself: it runs a harness whose
// child ignores SIGTERM and has started a grandchild that ignores it too, prints
// {"child":PID} once both are in place, then ends as it is told: node host.mjs MODE, where MODE
// is "wait" (until a signal kills it), "exit" (process.exit(3)) or "throw" (an uncaught exception).
import { spawnHarness } from '../../dist/lib/index.js';

const [mode] = process.argv.slice(2);
const children = new URL('.', import.meta.url).pathname;
const steps = [
  { spawn: [process.execPath, `${children}stubborn.mjs`], inherit: true },
  { ignore: 'SIGTERM' },
  { hang: true },
];
const run = spawnHarness({
  harness: 'gg',
  command: process.execPath,
  args: [`${children}script.mjs`, JSON.stringify(steps)],
});
for await (const event of run) {
  if (event.event?.stubborn !== 'ready') continue;
  process.stdout.write(JSON.stringify({ child: run.child.pid }) + '\n');
  if (mode === 'exit') process.exit(3);
  if (mode === 'throw') throw new Error('the host failed');
}
