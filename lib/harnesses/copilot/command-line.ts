import { PERMISSIONS, type CommandLine } from '../../kernel/command-line.js';

/** Without --allow-all-tools, a tool call that needs approval is refused in -p mode. */
export const commandLine = {
  command: 'copilot',
  promptFlag: '--prompt',
  promptFirst: true,
  flags: ['--output-format', 'json', PERMISSIONS, '--no-color'],
  permissions: { default: [], bypass: ['--allow-all-tools'] },
} satisfies CommandLine;
