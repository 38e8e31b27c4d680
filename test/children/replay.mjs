// Replays a captured stream on stdout line by line, as the harness printed it, with a delay
// between lines: node replay.mjs FILE [DELAY_MS] [EXIT_CODE]
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const [file, delay = '5', exitCode = '0'] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split(/(?<=\n)/);
for (const line of lines) {
  if (!process.stdout.write(line)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  await sleep(Number(delay));
}
process.exitCode = Number(exitCode);
