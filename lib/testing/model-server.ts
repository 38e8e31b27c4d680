/**
 * A scripted model on loopback: one HTTP server that answers the four wire protocols agent CLIs
 * speak (Anthropic Messages, OpenAI Responses, OpenAI Chat Completions, Gemini), playing the
 * turns of a script (lib/testing/script.ts), streamed as the real APIs stream them. Every request is
 * logged; a request the script does not expect (an unknown path, no matching conversation, a turn
 * past the script's end, a body that is not JSON) gets an HTTP error and is logged as
 * `unexpected`, so a test can fail on it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropic } from './protocols/anthropic.js';
import { chat } from './protocols/chat.js';
import { gemini } from './protocols/gemini.js';
import { usageOf, type Protocol, type ProtocolName, type SseEvent, type TurnContext } from './protocols/protocol.js';
import type { Usage } from './protocols/turn.js';
import { responses } from './protocols/responses.js';
import { choose, failureFor, httpFailure, withInputs, type Script } from './script.js';

const protocols: readonly Protocol[] = [anthropic, responses, chat, gemini];

/** Request bodies past this size are refused (the largest agent requests are a few hundred KB). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** One request the scripted model received, and what it did with it. */
export interface LoggedRequest {
  /** The HTTP method. */
  method: string;
  /** The path without its query. */
  path: string;
  /** The wire protocol the path belongs to. */
  protocol?: ProtocolName;
  /** The conversation that answered, by its name. */
  conversation?: string;
  /** The turn played (0-based), and which attempt at it this was (0 = the first). */
  turn?: number;
  /** Which attempt at the turn this was (0 = the first). */
  attempt?: number;
  /** How many tool results the request carried back. */
  toolResults?: number;
  /**
   * `served`: the turn was answered; `failed`: a scripted HTTP error; `dropped`: a scripted cut stream; `count_tokens`:
   * Anthropic's token counter; `probe`: a `HEAD /` reachability check (claude-agent-acp's Claude Code sends one);
   * `unexpected`: the script has no answer.
   */
  outcome: 'served' | 'failed' | 'dropped' | 'count_tokens' | 'probe' | 'unexpected';
  /** The HTTP status answered. */
  status: number;
  /** Why an unexpected request was refused. */
  reason?: string;
  /** The parsed request body. */
  body?: unknown;
  /** The usage a served turn reported (the ground truth a usage account is checked against). */
  usage?: Required<Usage>;
}

/**
 * A scripted model on a local port (`startModelServer`): agent CLIs pointed at its `url` get the script's turns in
 * the protocol they speak, offline and deterministic.
 */
export interface ModelServer {
  /**
   * `http://127.0.0.1:PORT`; the APIs live under it (`/v1/messages`, `/v1/responses`, `/v1/chat/completions`,
   * `/v1beta/models/...`).
   */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Every request so far, in arrival order. */
  readonly requests: readonly LoggedRequest[];
  /** The requests the script had no answer for. */
  unexpected(): LoggedRequest[];
  /** Ends the server and its open connections. */
  close(): Promise<void>;
}

/** Where {@link startModelServer} listens. */
export interface ModelServerOptions {
  /** The interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** The port. Default 0: a free one. */
  port?: number;
}

/**
 * Starts the scripted model and resolves once it listens.
 *
 * @example
 * ```ts
 * import { spawnHarness } from 'harness-events';
 * import { startModelServer, scriptFor } from 'harness-events/testing';
 *
 * const read = { name: 'Read', input: { file_path: 'a.ts' } };
 * const model = await startModelServer(scriptFor('Fix the tests', [{ text: 'Reading it first.', tools: [read] }]));
 * const env = { ANTHROPIC_BASE_URL: model.url };
 * const run = spawnHarness({ harness: 'claude-code', prompt: 'Fix the tests', env });
 * for await (const event of run) console.log(event.type);
 * console.log(model.requests, model.unexpected());
 * await model.close();
 * ```
 */
export async function startModelServer(script: Script, options: ModelServerOptions = {}): Promise<ModelServer> {
  const requests: LoggedRequest[] = [];
  const attempts = new Map<string, number>();
  let ids = 0;
  const context = (model: string): TurnContext => ({
    model,
    id: (prefix) => `${prefix}scripted_${String(++ids).padStart(4, '0')}`,
  });

  const server = createServer((req, res) => {
    readBody(req).then(
      (raw) => answer(req, res, raw),
      (error: Error) =>
        refuse(
          res,
          { method: req.method ?? '', path: pathOf(req), outcome: 'unexpected', status: 0 },
          413,
          error.message,
        ),
    );
  });

  function answer(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const entry: LoggedRequest = { method: req.method ?? '', path: pathOf(req), outcome: 'unexpected', status: 0 };
    if (entry.method === 'HEAD' && entry.path === '/') {
      entry.outcome = 'probe';
      res.writeHead(log(entry, 200)).end();
      return;
    }
    if (entry.method === 'POST' && entry.path === '/v1/messages/count_tokens') {
      entry.outcome = 'count_tokens';
      entry.protocol = 'anthropic';
      return sendJson(res, log(entry, 200), { input_tokens: 1000 });
    }
    const found =
      entry.method === 'POST'
        ? protocols.map((p) => ({ protocol: p, route: p.route(entry.path) })).find((r) => r.route)
        : undefined;
    if (!found) return refuse(res, entry, 404, `no API at ${entry.method} ${entry.path}`);
    const { protocol, route } = found;
    entry.protocol = protocol.name;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8'));
      entry.body = body;
    } catch {
      return refuse(res, entry, 400, 'the request body is not JSON', protocol);
    }
    const view = protocol.read(body, route!);
    entry.toolResults = view.toolResults;
    const choice = choose(script, view);
    if ('unexpected' in choice) return refuse(res, entry, 400, choice.unexpected, protocol);
    const key = `${choice.conversation.name}#${choice.turnIndex}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    Object.assign(entry, { conversation: choice.conversation.name, turn: choice.turnIndex, attempt });
    const turn = withInputs(choice.turn, body);
    const failure = failureFor(turn, attempt);
    const turnContext = context(view.model);
    if (failure !== undefined && failure !== 'drop') {
      const { status, message, headers } = httpFailure(failure);
      entry.outcome = 'failed';
      return sendJson(res, log(entry, status), protocol.errorBody({ status, message }), headers);
    }
    if (!view.stream) {
      Object.assign(entry, { outcome: 'served', usage: usageOf(turn) });
      return sendJson(res, log(entry, 200), protocol.complete(turn, turnContext), turn.headers);
    }
    const events = protocol.stream(turn, turnContext);
    res.writeHead(log(entry, 200), {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...turn.headers,
    });
    if (failure === 'drop') {
      // The first events, then the connection is cut: no completion, no [DONE].
      entry.outcome = 'dropped';
      res.write(
        events
          .slice(0, Math.min(2, events.length - 1))
          .map(sse)
          .join(''),
        () => res.destroy(),
      );
      return;
    }
    Object.assign(entry, { outcome: 'served', usage: usageOf(turn) });
    res.end(events.map(sse).join(''));
  }

  function log(entry: LoggedRequest, status: number): number {
    entry.status = status;
    requests.push(entry);
    return status;
  }

  function refuse(
    res: ServerResponse,
    entry: LoggedRequest,
    status: number,
    reason: string,
    protocol?: Protocol,
  ): void {
    entry.outcome = 'unexpected';
    entry.reason = reason;
    const message = `scripted model: unexpected request: ${reason}`;
    sendJson(res, log(entry, status), protocol ? protocol.errorBody({ status, message }) : { error: { message } });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    port,
    requests,
    unexpected: () => requests.filter((r) => r.outcome === 'unexpected'),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the refusal can still be answered.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () =>
      size > MAX_BODY_BYTES
        ? reject(new Error(`the request body is over ${MAX_BODY_BYTES} bytes`))
        : resolve(Buffer.concat(chunks)),
    );
    req.on('error', reject);
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sse(event: SseEvent): string {
  const data = event.data === '[DONE]' ? '[DONE]' : JSON.stringify(event.data);
  return `${event.event ? `event: ${event.event}\n` : ''}data: ${data}\n\n`;
}
