// A small ACP agent for the tests: JSON-RPC 2.0 on stdio, one message per line. It plays the
// scenario named by $ACP_AGENT_SCENARIO and appends to the file $ACP_AGENT_LOG, as JSON lines,
// its arguments, every message the client sent, the end of its input and the signals it got.
// It never sleeps: each step waits for the client's message it needs.
//
// Scenarios (the turn runs on session/prompt):
//   turn        thinks, writes, reads notes.md, asks permission for `rm -rf build`, reports the answer
//   fs          asks for fs/read_text_file, terminal/create and an extension method, reports the answers
//   cancel      starts a slow build, waits for session/cancel, asks a permission after it, ends `cancelled`
//   deaf        starts a slow build, then ignores session/cancel, the end of its input and SIGTERM
//   crash       starts a command and exits with code 3 mid-turn
//   auth        answers session/new with "Authentication required"
//   nosession   answers session/new without a sessionId
//   hang        never answers session/new (says so on stderr)
//   model       refuses the model of session/set_model, then answers the prompt
//   linger      answers the prompt, then stays after its input ends (until SIGTERM)
//   refuse      answers the prompt with stopReason refusal, then exits 0 when its input ends
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const scenario = process.env.ACP_AGENT_SCENARIO;
const note = (entry) => appendFileSync(process.env.ACP_AGENT_LOG, JSON.stringify(entry) + '\n');
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
const update = (sessionUpdate, fields) =>
  send({ method: 'session/update', params: { sessionId: 'sess-1', update: { sessionUpdate, ...fields } } });
const text = (kind, chunk) => update(kind, { content: { type: 'text', text: chunk } });

note({ argv: process.argv.slice(2) });
const stubborn = scenario === 'deaf' || scenario === 'linger';
if (scenario === 'deaf') process.on('SIGTERM', () => note({ signal: 'SIGTERM' }));
// Something to keep running for after stdin ends.
if (stubborn) setInterval(() => {}, 1 << 30);

const received = [];
let wake = () => {};
/** Resolves with the first message the client sent at or after `from` that `matches`. */
async function next(matches, from = 0) {
  for (;;) {
    const found = received.slice(from).find(matches);
    if (found) return found;
    await new Promise((resolve) => (wake = resolve));
  }
}
/** Sends a request of the agent's own and resolves with the client's answer. */
async function ask(id, method, params) {
  const from = received.length;
  send({ id, method, params });
  return next((message) => message.id === id && !('method' in message), from);
}

const permissionOptions = [
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

const turns = {
  async turn() {
    text('agent_thought_chunk', 'Planning.');
    text('agent_message_chunk', 'Reading ');
    text('agent_message_chunk', 'notes.');
    update('tool_call', {
      toolCallId: 't1',
      title: 'Read notes.md',
      kind: 'read',
      status: 'pending',
      rawInput: { path: 'notes.md' },
    });
    update('tool_call_update', {
      toolCallId: 't1',
      status: 'completed',
      rawOutput: { content: 'The magic word is: pineapple.' },
    });
    update('tool_call', {
      toolCallId: 't2',
      title: 'Clean',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: 'rm -rf build' },
    });
    const answer = await ask(100, 'session/request_permission', {
      sessionId: 'sess-1',
      toolCall: { toolCallId: 't2', title: 'rm -rf build' },
      options: permissionOptions,
    });
    const allowed = answer.result?.outcome?.optionId === 'once';
    update(
      'tool_call_update',
      allowed
        ? { toolCallId: 't2', status: 'completed', rawOutput: { exitCode: 0 } }
        : { toolCallId: 't2', status: 'failed' },
    );
    text('agent_message_chunk', `permission: ${JSON.stringify(answer.result)}`);
    return { stopReason: 'end_turn', usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 } };
  },
  async fs() {
    const answers = [
      await ask(200, 'fs/read_text_file', { sessionId: 'sess-1', path: '/etc/hostname' }),
      await ask(201, 'terminal/create', { sessionId: 'sess-1', command: 'ls' }),
      await ask(202, '_acme/ping', {}),
    ];
    text('agent_message_chunk', `answers: ${JSON.stringify(answers.map((answer) => answer.error))}`);
    return { stopReason: 'end_turn' };
  },
  async cancel() {
    text('agent_message_chunk', 'Starting the slow build.');
    update('tool_call', {
      toolCallId: 't1',
      title: 'Slow build',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: 'sleep 30 && echo built' },
    });
    await next((message) => message.method === 'session/cancel');
    const answer = await ask(300, 'session/request_permission', {
      sessionId: 'sess-1',
      toolCall: { toolCallId: 't1' },
      options: permissionOptions,
    });
    text('agent_message_chunk', `after the cancel: ${JSON.stringify(answer.result)}`);
    return { stopReason: 'cancelled' };
  },
  async deaf() {
    text('agent_message_chunk', 'Starting the slow build.');
    update('tool_call', {
      toolCallId: 't1',
      title: 'Slow build',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: 'sleep 30 && echo built' },
    });
    return new Promise(() => {});
  },
  async crash() {
    text('agent_message_chunk', 'Working.');
    update('tool_call', {
      toolCallId: 't1',
      title: 'Build',
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command: 'make' },
    });
    process.stderr.write('agent crashed\n', () => process.exit(3));
    return new Promise(() => {});
  },
  async model() {
    text('agent_message_chunk', 'Hello.');
    return { stopReason: 'end_turn' };
  },
  async refuse() {
    return { stopReason: 'refusal' };
  },
  async linger() {
    text('agent_message_chunk', 'Done.');
    return { stopReason: 'end_turn' };
  },
};

async function handle(message) {
  const { id, method } = message;
  if (method === 'initialize') {
    return send({
      id,
      result: {
        protocolVersion: 1,
        agentCapabilities: {},
        agentInfo: { name: 'test-agent', version: '1.0.0' },
        authMethods: [],
      },
    });
  }
  if (method === 'session/new') {
    if (scenario === 'auth') return send({ id, error: { code: -32000, message: 'Authentication required' } });
    if (scenario === 'hang') return process.stderr.write('waiting for a session\n');
    if (scenario === 'nosession') return send({ id, result: { modes: {} } });
    return send({ id, result: { sessionId: 'sess-1' } });
  }
  if (method === 'session/set_model')
    return send({ id, error: { code: -32602, message: `Unknown model: ${message.params.modelId}` } });
  if (method === 'session/prompt') return send({ id, result: await turns[scenario]() });
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  note({ received: message });
  received.push(message);
  wake();
  handle(message);
});
lines.on('close', () => {
  note({ end: true });
  if (!stubborn) process.exit(0);
});
