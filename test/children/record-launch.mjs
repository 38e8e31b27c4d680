// A stand-in for an agent CLI that records how it was started: its arguments, its whole environment and what it
// read on stdin, as JSON in launch-record.json in its working directory, then exits 0. It stops reading at EOF, or
// at the first JSON-RPC message (an ACP client's initialize, which keeps stdin open).
import { writeFileSync } from 'node:fs';

let stdin = '';
let written = false;
function record() {
  if (written) return;
  written = true;
  writeFileSync('launch-record.json', JSON.stringify({ argv: process.argv.slice(2), env: process.env, stdin }));
  process.exit(0);
}
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  stdin += chunk;
  if (stdin.includes('"jsonrpc"')) record();
});
process.stdin.on('end', record);
process.stdin.on('error', record);
