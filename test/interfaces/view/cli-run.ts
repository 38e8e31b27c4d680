import { spawn } from 'node:child_process';

export const bin = new URL('../../../bin/harness-events.js', import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a child process with a pipe for stdout (not a terminal); resolves whatever the exit code. */
export function harnessEvents(
  args: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: options.env ?? process.env, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}
