import { type CommandLine } from '../../kernel/command-line.js';

/** pi has no approvals: its tools always run, so only bypass says what it does. */
export const commandLine = {
  command: 'pi',
  // Its parser takes no `--`; piped stdin is the initial message.
  promptStdin: true,
  flags: ['--mode', 'json'],
  permissions: { bypass: [] },
} satisfies CommandLine;
