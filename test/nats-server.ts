/**
 * A real nats-server (Debian's package) with JetStream, on a free loopback port and a
 * temporary store, for the tests and the benchmark. start() resolves on the server's own
 * "Server is ready" line; stop() resolves when the process has exited; close() also removes
 * the store. restart() starts it again on the same port and store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NatsServer {
  readonly url: string;
  readonly port: number;
  readonly storeDir: string;
  readonly running: boolean;
  /** Stops it (SIGTERM) and waits for the process to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store. */
  restart(): Promise<void>;
  /** Stops it and removes its store. */
  close(): Promise<void>;
}

const binary = ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find((path) => existsSync(path)) ?? 'nats-server';

export async function startNatsServer(): Promise<NatsServer> {
  const storeDir = mkdtempSync(join(tmpdir(), 'harness-events-nats-'));
  let child: ChildProcess | undefined;
  let port = -1;

  /** Starts the server; -p -1 lets it pick a free port, which it prints. */
  async function launch(): Promise<void> {
    const process_ = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = process_;
    let log = '';
    await new Promise<void>((resolve, reject) => {
      process_.on('error', (error) =>
        reject(new Error(`cannot start ${binary} (.ci/run installs Debian's nats-server): ${error.message}`)),
      );
      process_.on('exit', (code, signal) =>
        reject(new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${log}`)),
      );
      const read = (text: string) => {
        log += text;
        const listening = /Listening for client connections on 127\.0\.0\.1:(\d+)/.exec(log);
        if (listening) port = Number(listening[1]);
        if (!log.includes('Server is ready')) return;
        process_.stderr!.off('data', read).resume();
        process_.removeAllListeners('exit');
        resolve();
      };
      process_.stderr!.setEncoding('utf8').on('data', read);
    });
  }

  async function stop(): Promise<void> {
    const process_ = child;
    child = undefined;
    if (!process_ || process_.exitCode !== null || process_.signalCode !== null) return;
    await new Promise((resolve) => {
      process_.once('exit', resolve);
      process_.kill('SIGTERM');
    });
  }

  await launch();
  return {
    get url() {
      return `nats://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    storeDir,
    get running() {
      return child !== undefined;
    },
    stop,
    restart: launch,
    async close() {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** A loopback port where nothing listens (nothing at all, unless another program takes it meanwhile). */
export async function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
