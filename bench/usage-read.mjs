/**
 * One pass over the homes, in a process of its own: node bench/usage-read.mjs <raw|usage> <home>... prints
 * {cpuMs, seconds, calls, peakRssMb}. `raw`: every file under the homes read, and each JSONL line parsed (the floor:
 * the bytes and the JSON, nothing understood); `usage`: accountUsage over the same homes, by day and model.
 */
import { createReadStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { accountUsage } from '../dist/lib/index.js';

const [which, ...homes] = process.argv.slice(2);
const cpu = process.cpuUsage();
const started = performance.now();
let calls = 0;
if (which === 'raw') {
  for (const home of homes)
    for (const entry of readdirSync(home, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      if (!path.endsWith('.jsonl')) readFileSync(path);
      else
        for await (const line of createInterface({ input: createReadStream(path) })) if (line !== '') JSON.parse(line);
    }
} else {
  const report = await accountUsage({ homes }, { by: ['day', 'model'], tz: 'UTC' });
  calls = report.total.calls + report.duplicates;
}
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    cpuMs: (used.user + used.system) / 1000,
    seconds: (performance.now() - started) / 1000,
    calls,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
