/**
 * A real terminal for tests: a tmux server of the test's own (its socket in a temp dir, no
 * config), one pane running bash, typed into with send-keys and read with capture-pane.
 */
import { execFile, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { createInterface, type Interface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Debian's tmux (CI installs it: .ci/run). Its absence fails the suite with this message rather than skipping it. */
export function tmuxVersion(): string {
  try {
    return execFileSync('tmux', ['-V'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('tmux is not installed (apt-get install -y tmux; .ci/run does it)');
  }
}

export class Terminal {
  private readonly socket: string;
  /** The tmux server's and the pane's shell's process ids: closing waits for both to be gone. */
  private readonly pids: number[];

  /** Starts bash in a `width` x `height` pane, in `dir`, with `env` added to a plain environment. */
  constructor(
    dir: string,
    readonly width: number,
    readonly height: number,
    env: Record<string, string> = {},
  ) {
    this.socket = join(dir, 'tmux.sock');
    // No history file: bash would write one into the temp dir as it is killed.
    const variables = Object.entries({
      PS1: '$ ',
      HOME: dir,
      HISTFILE: '/dev/null',
      PATH: `${dir}:${process.env.PATH}`,
      TERM: 'tmux-256color',
      ...env,
    }).map(([key, value]) => `${key}=${value}`);
    execFileSync('tmux', [
      '-S',
      this.socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      String(width),
      '-y',
      String(height),
      '-c',
      dir,
      'env',
      '-i',
      ...variables,
      'bash',
      '--norc',
      '--noprofile',
    ]);
    this.pids = execFileSync('tmux', ['-S', this.socket, 'display-message', '-p', '#{pid} #{pane_pid}'], {
      encoding: 'utf8',
    })
      .trim()
      .split(' ')
      .map(Number);
  }

  /** Types a command line and presses Enter, as a person would. */
  async type(line: string): Promise<void> {
    await this.tmux('send-keys', '-l', line);
    await this.tmux('send-keys', 'Enter');
  }

  /** The screen as text, each line without trailing blanks, trailing empty lines dropped. */
  async screen(): Promise<string[]> {
    return trimScreen(await this.tmux('capture-pane', '-p'));
  }

  /** The screen with its colors, as SGR escape sequences (capture-pane -e). */
  async screenWithColors(): Promise<string[]> {
    return trimScreen(await this.tmux('capture-pane', '-p', '-e'));
  }

  /**
   * Polls the screen until `check` returns something other than undefined: a wait on what a
   * person would see, with a generous deadline for a loaded machine; on timeout the error shows
   * the screen.
   */
  async waitFor<T>(what: string, check: (screen: string[]) => T | undefined, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen();
      const found = check(screen);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`waited ${timeoutMs} ms for ${what}; the screen:\n${screen.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Ends the tmux server (and with it the shell and whatever runs in it), and waits until they are gone. */
  async close(): Promise<void> {
    await this.tmux('kill-server').catch(() => undefined);
    const deadline = Date.now() + 10_000;
    while (this.pids.some(alive)) {
      if (Date.now() > deadline) throw new Error(`tmux (${this.pids.join(', ')}) still running 10 s after kill-server`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async tmux(...args: string[]): Promise<string> {
    return (await run('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' })).stdout;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function trimScreen(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/\s+$/, ''));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The test's end of test/children/stepped-replay.mjs: a Unix socket the replay connects to.
 * `step(n)` has it print its next n lines and resolves once they are written.
 */
export class ReplayControl {
  private readonly server: Server;
  private connection: { socket: Socket; lines: Interface } | undefined;
  readonly path: string;

  constructor(dir: string) {
    this.path = join(dir, 'replay.sock');
    this.server = createServer();
  }

  async listen(): Promise<void> {
    this.server.listen(this.path);
    await once(this.server, 'listening');
  }

  /** Waits for the replay to connect and say it is ready. */
  async ready(): Promise<void> {
    const [socket] = (await once(this.server, 'connection')) as [Socket];
    const lines = createInterface({ input: socket });
    this.connection = { socket, lines };
    await this.answer('ready');
  }

  /** Has the replay print `count` more lines of its capture (or the rest); resolves when they are written. */
  async step(count: number | 'rest'): Promise<void> {
    this.connection!.socket.write(`${count}\n`);
    await this.answer('sent');
  }

  /** Lets the replay exit. */
  end(): void {
    this.connection?.socket.end('end\n');
  }

  async close(): Promise<void> {
    this.connection?.socket.destroy();
    this.server.close();
    await once(this.server, 'close');
  }

  private async answer(prefix: string): Promise<void> {
    const [line] = (await once(this.connection!.lines, 'line')) as [string];
    if (!line.startsWith(prefix)) throw new Error(`the replay said "${line}", not "${prefix}..."`);
  }
}
