// Plays an ACP agent's captured stdout back to a live client, in step with it:
//   node acp-replay.mjs CAPTURE.jsonl LOG
// A response is written once the client has sent the request it answers (a turn that ends
// `cancelled` because the lab's client cancelled it, as CAPTURE.client.jsonl says, once the client
// has also sent session/cancel; an agent can cancel a turn itself); after a request of the agent's own,
// the replay waits for the client's answer. Every line the client wrote is appended to LOG. The
// replay exits when its input ends, as the captured agents did.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [capture, log] = process.argv.slice(2);
const labClient = capture.replace(/\.jsonl$/, '.client.jsonl');
const clientCancelled = existsSync(labClient) && readFileSync(labClient, 'utf8').includes('"session/cancel"');
const received = [];
let ended = false;
let wake = () => {};
createInterface({ input: process.stdin })
  .on('line', (line) => {
    appendFileSync(log, line + '\n');
    received.push(JSON.parse(line));
    wake();
  })
  .on('close', () => {
    ended = true;
    wake();
  });

/** Waits for a client message at or after `from` that `matches`; exits if the client goes away first. */
async function next(matches, from = 0) {
  while (!received.slice(from).some(matches)) {
    if (ended) process.exit(1);
    await new Promise((resolve) => (wake = resolve));
  }
}

for (const line of readFileSync(capture, 'utf8')
  .split('\n')
  .filter((line) => line !== '')) {
  const message = JSON.parse(line);
  const isRequest = 'method' in message && 'id' in message;
  if (!('method' in message) && 'id' in message) {
    await next((sent) => sent.id === message.id && 'method' in sent);
    if (message.result?.stopReason === 'cancelled' && clientCancelled)
      await next((sent) => sent.method === 'session/cancel');
  }
  const from = received.length;
  process.stdout.write(line + '\n');
  if (isRequest) await next((sent) => sent.id === message.id && !('method' in sent), from);
}
while (!ended) await new Promise((resolve) => (wake = resolve));
