import { type CommandLine } from '../../kernel/command-line.js';

/**
 * `run` rejects what would be asked; OpenCode's own defaults allow edits and commands, so the default asks (the
 * inline config outranks the project's). bypass: what the project config allows, as the lab ran it.
 */
export const commandLine = {
  command: 'opencode',
  flags: ['run', '--format', 'json'],
  permissions: { default: [], bypass: [] },
  permissionEnv: { default: { OPENCODE_CONFIG_CONTENT: '{"permission":"ask"}' } },
} satisfies CommandLine;
