/**
 * The CLI as tests run it: the built bin as a child process (`harnessEvents`), or `main` in this process
 * (`inProcess`, where a test needs no process of its own). One helper for every test of the command line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { vi } from 'vitest';
import { main } from '../lib/interfaces/cli/cli.js';

/** The built command line (`npm run build` makes what it loads). */
export const bin = new URL('../bin/harness-events.js', import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** What standard input holds (then it ends); without it, standard input is /dev/null. */
  stdin?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Another entry point to the CLI than the bin (a script that calls `main`). */
  entry?: string;
  /** Sees each line of standard output as it comes, with the child (to signal it after a handshake). */
  onLine?: (line: string, child: ChildProcess) => void;
}

/** Runs the built CLI with stdout a pipe (not a terminal); resolves whatever the exit code (-1: killed by a signal). */
export function harnessEvents(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [options.entry ?? bin, ...args], {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout!.on('data', (data: Buffer) => {
      stdout += data;
      if (options.onLine === undefined) return;
      const lines = (pending + data).split('\n');
      pending = lines.pop()!;
      for (const line of lines) options.onLine(line, child);
    });
    child.stderr!.on('data', (data) => (stderr += data));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin?.end(options.stdin);
  });
}

/**
 * Runs `main` in this process, with an empty standard input; stdout's lines, and what it wrote to process.stderr (a
 * usage error's line).
 */
export async function inProcess(args: string[]): Promise<{ code: number; lines: string[]; errors: string }> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const errors: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => errors.push(String(chunk)) > 0);
  try {
    const code = await main(args, new PassThrough(), out);
    return { code, lines: text.split('\n').filter((line) => line !== ''), errors: errors.join('') };
  } finally {
    spy.mockRestore();
  }
}

/** The CLI running (the built bin), its output so far, and a way to wait for a line of it: a handshake to act on. */
export function startCli(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args]);
  let stdout = '';
  let stderr = '';
  const waiting: [(line: Record<string, unknown>) => boolean, () => void][] = [];
  const check = () => {
    for (const [index, [matches, resolve]] of waiting.entries()) {
      if (jsonLines(stdout).some(matches)) {
        waiting.splice(index, 1);
        resolve();
        return check();
      }
    }
  };
  child.stdout.on('data', (d) => {
    stdout += d;
    check();
  });
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    child,
    closed,
    output: () => stdout,
    /** Resolves once a complete line of stdout matches. */
    line: (matches: (line: Record<string, unknown>) => boolean) =>
      new Promise<void>((resolve) => {
        waiting.push([matches, resolve]);
        check();
      }),
  };
}

/** The complete JSON lines of a stdout. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line));
}
