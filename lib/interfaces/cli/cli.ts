/**
 * The `harness-events` command: reads a harness's raw output and writes normalized events as
 * JSONL. Exit codes: 0 when the input was read to its end (warnings and unknown events are
 * normal output), 1 on a schema violation with --strict or a read error mid-stream, 2 on a
 * usage error, 128 + n after signal n (SIGINT, SIGTERM, SIGHUP, SIGQUIT: what was read is
 * still flushed, the metrics still written); `run` exits as its result says (`runExitCode`).
 * Each command is a file of this folder; this one (the bundle's entry) picks it.
 */
import type { Readable } from 'node:stream';
import { packageVersion } from '../../kernel/version.js';
import { followCommand } from './follow.js';
import { usage, writeHelp } from './help.js';
import { normalizeCommand } from './normalize.js';
import { otelCommand } from './otel.js';
import { replayCommand } from './replay.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { sessionsCommand } from './sessions.js';
import { UsageError } from './usage-error.js';
import { usageCommand } from './usage.js';
import { viewCommand } from './view.js';
import { say } from './output.js';

/** Runs the CLI; resolves to the process exit code. */
export async function main(
  argv: string[],
  stdin: Readable = process.stdin,
  stdout: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined) {
      say('a command is required');
      process.stderr.write(usage + '\n');
      return 2;
    }
    if (command === '-h' || command === '--help' || command === 'help') return writeHelp(stdout, usage);
    if (command === '-v' || command === '--version') {
      stdout.write(`${packageVersion()}\n`);
      return 0;
    }
    if (command === 'normalize') return await normalizeCommand(rest, stdin, stdout);
    if (command === 'run') return await runCommand(rest, stdout);
    if (command === 'replay') return await replayCommand(rest, stdout);
    if (command === 'view') return await viewCommand(rest, stdin, stdout);
    if (command === 'report') return await reportCommand(rest, stdin, stdout);
    if (command === 'sessions') return await sessionsCommand(rest, stdout);
    if (command === 'follow') return await followCommand(rest, stdout);
    if (command === 'usage') return await usageCommand(rest, stdout);
    if (command === 'otel') return await otelCommand(rest, stdin, stdout);
    throw new UsageError(`unknown command "${command}" (see harness-events --help)`);
  } catch (error) {
    if (error instanceof UsageError) {
      say(error.message);
      return 2;
    }
    throw error;
  }
}
