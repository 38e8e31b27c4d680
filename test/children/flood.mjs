// Writes BYTES of Claude Code assistant lines (all of one length) to stdout as fast as the
// pipe takes them, and records in PROGRESS_FILE, as "BYTES STATE", how many bytes it has handed
// to the pipe and what it is doing: "writing", "waiting" (for the pipe to drain: its reader is
// behind) or "done". Updated after every megabyte and at each change of state:
// node flood.mjs BYTES PROGRESS_FILE [TEXT_BYTES]   (TEXT_BYTES: each line's text, default 16 KiB)
import { writeFileSync } from 'node:fs';
import { once } from 'node:events';

const [bytes, progressFile, textBytes] = process.argv.slice(2);
const total = Number(bytes);
const text = 'x'.repeat(Number(textBytes ?? 16 * 1024));
let written = 0;
let sinceReport = 0;
let id = 0;
// Each line: the record's start, a 10-digit message id, the rest.
const head = '{"type":"assistant","message":{"id":"m';
const tail = `","content":[{"type":"text","text":"${text}"}]}}\n`;
const report = (state) => {
  sinceReport = 0;
  writeFileSync(progressFile, `${written} ${state}`);
};
report('writing');
while (written < total) {
  const line = head + String(id++).padStart(10, '0') + tail;
  written += line.length;
  sinceReport += line.length;
  if (!process.stdout.write(line)) {
    report('waiting');
    await once(process.stdout, 'drain');
    report('writing');
  }
  if (sinceReport >= 1 << 20) report('writing');
}
report('done');
