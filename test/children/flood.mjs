// Writes BYTES of Claude Code assistant lines (all of one length) to stdout as fast as the
// pipe takes them, and records how many bytes it has handed to the pipe in PROGRESS_FILE
// after every megabyte: node flood.mjs BYTES PROGRESS_FILE
import { writeFileSync } from 'node:fs';

const [bytes, progressFile] = process.argv.slice(2);
const total = Number(bytes);
const text = 'x'.repeat(16 * 1024);
let written = 0;
let sinceReport = 0;
let id = 0;
while (written < total) {
  const line = `{"type":"assistant","message":{"id":"m${String(id++).padStart(10, '0')}","content":[{"type":"text","text":"${text}"}]}}\n`;
  written += line.length;
  sinceReport += line.length;
  if (!process.stdout.write(line)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  if (sinceReport >= 1 << 20) {
    sinceReport = 0;
    writeFileSync(progressFile, String(written));
  }
}
writeFileSync(progressFile, String(written));
