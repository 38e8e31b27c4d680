// Replays a captured stream on stdout in steps the test decides: node stepped-replay.mjs FILE SOCKET
// Connects to the test's Unix socket and says "ready"; each line the test sends is a number of
// lines to print next (or "rest"); once they are written it answers "sent N". It exits 0 when the
// capture is all printed and the test says "end" (or closes the socket).
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

const [file, socketPath] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split(/(?<=\n)/);
let next = 0;
const write = (text) =>
  new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)));
const socket = connect(socketPath, () => socket.write('ready\n'));
for await (const order of createInterface({ input: socket })) {
  if (order === 'end') break;
  const count = order === 'rest' ? lines.length - next : Number(order);
  await write(lines.slice(next, next + count).join(''));
  next += count;
  socket.write(`sent ${next}\n`);
}
socket.end();
