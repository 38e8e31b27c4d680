/**
 * One read of a SQLite file's every page, in a process of its own: node bench/store-read.mjs <floor|pages> <file>
 * prints {cpuMs, seconds}. `floor`: the pages read one by one with readSync and nothing else; `pages`: the library's
 * page reader (lib/sqlite/pages.ts), the WAL's frames laid over the main file and every page checked to be the
 * snapshot's.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { PageSource } from '../dist/lib/sqlite/pages.js';

const [which, file] = process.argv.slice(2);
const cpu = process.cpuUsage();
const started = performance.now();
if (which === 'floor') {
  const fd = openSync(file, 'r');
  const page = Buffer.allocUnsafe(4096);
  for (let at = 0, size = statSync(file).size; at < size; at += page.length) readSync(fd, page, 0, page.length, at);
  closeSync(fd);
} else {
  const source = await PageSource.open(file);
  for (let number = 1; number <= source.pageCount; number++) await source.page(number);
  source.close();
}
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, seconds: (performance.now() - started) / 1000 }));
