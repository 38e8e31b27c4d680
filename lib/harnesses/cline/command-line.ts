import { type CommandLine } from '../../kernel/command-line.js';

/**
 * Cline approves every tool call unless told not to. Never -y/--yolo: on a model that answers in text only, it
 * loops without end.
 */
export const commandLine = {
  command: 'cline',
  flags: ['--json'],
  permissions: { default: ['--auto-approve', 'false'], bypass: ['--auto-approve', 'true'] },
} satisfies CommandLine;
