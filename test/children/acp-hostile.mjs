// An ACP agent that misbehaves, for issue 30's tests: $ACP_HOSTILE names how. Every scenario stays running after it
// misbehaves (until SIGTERM), so only the client's own ending can end the run. It never sleeps: each step waits for the
// client's message it needs.
//   mute         never answers initialize
//   string-id    answers initialize with the id as a string ("1")
//   closed       answers the handshake, then closes its stdout on session/prompt
//   long-answer  answers session/prompt with one line of $ACP_HOSTILE_BYTES bytes
//   flood        sends $ACP_HOSTILE_REQUESTS requests named by $ACP_HOSTILE_METHOD_BYTES bytes, reading nothing more
import { createInterface } from 'node:readline';

const scenario = process.env.ACP_HOSTILE;
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
setInterval(() => {}, 1 << 30);
process.stdout.on('error', () => {});

const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  const message = JSON.parse(line);
  if (scenario === 'mute') return;
  if (message.method === 'initialize') {
    if (scenario === 'string-id') return send({ id: String(message.id), result: { protocolVersion: 1 } });
    return send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: {} } });
  }
  if (message.method === 'session/new') {
    if (scenario === 'flood') {
      // Reads nothing more: the client's answers pile up in the pipe, then in the client.
      input.close();
      process.stdin.pause();
      const method = 'm'.repeat(Number(process.env.ACP_HOSTILE_METHOD_BYTES));
      const count = Number(process.env.ACP_HOSTILE_REQUESTS);
      let n = 0;
      const more = () => {
        while (n < count) if (!process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: ++n, method }) + '\n')) break;
        if (n < count) process.stdout.once('drain', more);
        else {
          process.stderr.write('flooded\n');
          send({ id: message.id, result: { sessionId: 's1' } });
        }
      };
      return more();
    }
    return send({ id: message.id, result: { sessionId: 's1' } });
  }
  if (message.method === 'session/prompt') {
    if (scenario === 'closed') return process.stdout.end();
    if (scenario === 'long-answer') {
      const pad = 'x'.repeat(Number(process.env.ACP_HOSTILE_BYTES));
      return send({ id: message.id, result: { stopReason: 'end_turn', pad } });
    }
    return send({ id: message.id, result: { stopReason: 'end_turn' } });
  }
});
