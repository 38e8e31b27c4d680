import { type CommandLine } from '../../kernel/command-line.js';

/** Without --auto, `run` rejects every permission it would ask for. */
export const commandLine = {
  command: 'kilo',
  flags: ['run', '--format', 'json'],
  permissions: { default: [], bypass: ['--auto'] },
} satisfies CommandLine;
