/**
 * The scripted model server as its tests speak to it: plain fetch, one server at a time (a test file closes it after
 * each test with `afterEach(stop)`), the server-sent events of a response read back, and a turn with every part.
 */
import { expect } from 'vitest';
import { startModelServer, type ModelServer, type Script } from '../../lib/testing/index.js';

/** The server the running test started. */
export let server: ModelServer | undefined;

export async function start(script: Script): Promise<ModelServer> {
  server = await startModelServer(script);
  return server;
}

/** Closes the server the running test started, if any. */
export async function stop(): Promise<void> {
  await server?.close();
  server = undefined;
}

export async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface Sse {
  event?: string;
  data: any;
}

/** The server-sent events of a response body. */
export async function events(response: Response): Promise<Sse[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines.find((line) => line.startsWith('data: '))!.slice(6);
      return { ...(event ? { event } : {}), data: data === '[DONE]' ? data : JSON.parse(data) };
    });
}

/** A turn with every part: reasoning, text, a tool call and its usage. */
export const turn = {
  reasoning: 'Think first.',
  text: 'Reading the file.',
  tools: [{ name: 'Read', input: { file_path: '/w/README.md' } }],
  usage: { input: 1500, output: 30, cached: 1000, reasoning: 10 },
};
