/**
 * The NATS client, loaded on first use only: a program that never publishes does not pay for
 * loading it. Connecting retries until a deadline, so a sink started before its server comes
 * up waits for it (holding the pipeline back) rather than failing at once.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { NatsConnection, NodeConnectionOptions } from '@nats-io/transport-node';
import { peer } from '../peers.js';

/** The NATS client's connection options (credentials, TLS, ...) but `servers`, which the sink and source take. */
export type ConnectOptions = Omit<NodeConnectionOptions, 'servers'>;

type Modules = [typeof import('@nats-io/transport-node'), typeof import('@nats-io/jetstream')];
let modules: Promise<Modules> | undefined;

export function nats(): Promise<Modules> {
  modules ??= Promise.all([
    peer('@nats-io/transport-node', () => import('@nats-io/transport-node')).then(named),
    peer('@nats-io/jetstream', () => import('@nats-io/jetstream')).then(named),
  ]);
  return modules;
}

/**
 * The NATS client's packages are CommonJS: Node.js gives their exports as named exports (and as `default`), the
 * CLI's bundle as `default` only.
 */
function named<T extends object>(module: T): T {
  return 'default' in module ? (module.default as T) : module;
}

/** `nats://a:4222,nats://b:4222` or a list: the servers as the client takes them. */
export function serverList(servers: string | readonly string[]): string[] {
  const list = (typeof servers === 'string' ? servers.split(',') : [...servers])
    .map((server) => server.trim())
    .filter(Boolean);
  if (list.length === 0)
    throw new TypeError('servers: at least one NATS server URL is required, e.g. nats://127.0.0.1:4222');
  return list;
}

const RETRY_MS = 250;

/** No NATS server of `servers` could be connected to within `giveUpAfterMs`; `cause` is the last try's error. */
export class JetStreamConnectError extends Error {
  constructor(
    message: string,
    /** The servers tried. */
    readonly servers: readonly string[],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'JetStreamConnectError';
  }
}

/**
 * Connects, trying again every 250 ms until `withinMs` has passed. Once connected, the client
 * reconnects on its own for ever: the caller decides when to give up (by closing).
 */
export async function connectWithin(
  servers: string[],
  options: ConnectOptions,
  withinMs: number,
  signal: AbortSignal,
): Promise<NatsConnection> {
  const [{ connect }] = await nats();
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await connect({ reconnectTimeWait: 500, ...options, servers, maxReconnectAttempts: -1 });
    } catch (error) {
      if (signal.aborted) throw error;
      if (Date.now() + RETRY_MS > deadline) {
        throw new JetStreamConnectError(
          `could not connect to ${servers.join(', ')} within ${seconds(withinMs)}: ${(error as Error).message}`,
          servers,
          { cause: error },
        );
      }
      await delay(RETRY_MS, undefined, { signal });
    }
  }
}

export function seconds(ms: number): string {
  return `${+(ms / 1000).toFixed(1)} s`;
}

/** Whether an error is JetStream's "stream not found". */
export function isStreamNotFound(error: unknown): boolean {
  return (error as Error)?.name === 'StreamNotFoundError';
}
