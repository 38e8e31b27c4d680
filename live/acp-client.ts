/**
 * A minimal ACP client for the live suite, as the ACP lab drove the agents: `initialize`,
 * `session/new`, `session/prompt` with the scenario's prompt as one text block; permission
 * requests answered with the first `allow_once` option, every other request refused with
 * -32601; the agent's stdin closed once the prompt is answered. It reads the agent's stdout
 * beside the normalizer (both get every chunk).
 */
import type { ChildProcess } from 'node:child_process';

interface Message {
  id?: number | string;
  method?: string;
  params?: { options?: { optionId: string; kind: string }[] };
  result?: { sessionId?: string; stopReason?: string };
  error?: unknown;
}

/** Drives one prompt turn; resolves when the exchange is over: true when the agent answered the prompt. */
export function driveAcp(child: ChildProcess, cwd: string, prompt: string): Promise<boolean> {
  const stdin = child.stdin!;
  const send = (message: object) => {
    if (!stdin.destroyed) stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
  };
  return new Promise((resolve) => {
    const finish = (answered: boolean) => {
      stdin.end();
      resolve(answered);
    };
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        let message: Message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.method !== undefined && message.id !== undefined) {
          const allow = message.method === 'session/request_permission' ? message.params?.options?.find((o) => o.kind === 'allow_once') : undefined;
          send(allow ? { id: message.id, result: { outcome: { outcome: 'selected', optionId: allow.optionId } } } : { id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
        } else if (message.id === 1) {
          if (message.error) finish(false);
          else send({ id: 2, method: 'session/new', params: { cwd, mcpServers: [] } });
        } else if (message.id === 2) {
          const sessionId = message.result?.sessionId;
          if (!sessionId) finish(false);
          else send({ id: 3, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text: prompt }] } });
        } else if (message.id === 3) finish(message.result?.stopReason !== undefined);
      }
    });
    child.stdout!.once('end', () => finish(false));
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: 'harness-events-live', version: '0.0.0' } },
    });
  });
}
