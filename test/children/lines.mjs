// Writes N JSON lines {"n":1} ... {"n":N} to stdout, as fast as the pipe takes them, then exits 0:
// node lines.mjs N
const total = Number(process.argv[2]);
let n = 0;
function write() {
  while (n < total) if (!process.stdout.write(`{"n":${++n}}\n`)) return process.stdout.once('drain', write);
}
write();
