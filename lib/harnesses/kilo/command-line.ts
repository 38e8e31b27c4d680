import { type CommandLine } from '../../kernel/command-line.js';
import { ASK, READ_ONLY } from '../opencode/command-line.js';

/**
 * Without --auto, `run` rejects every permission it would ask for; but Kilo's own defaults (and any project's
 * kilo.json) allow edits and commands, so the default asks (the inline config outranks the project's), as OpenCode's.
 */
export const commandLine = {
  command: 'kilo',
  flags: ['run', '--format', 'json'],
  permissions: { default: [], 'read-only': [], bypass: ['--auto'] },
  permissionEnv: { default: { KILO_CONFIG_CONTENT: ASK }, 'read-only': { KILO_CONFIG_CONTENT: READ_ONLY } },
} satisfies CommandLine;
