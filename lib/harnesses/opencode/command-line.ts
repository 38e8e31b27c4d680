import { type CommandLine } from '../../kernel/command-line.js';

/** An inline config (`OPENCODE_CONFIG_CONTENT`, Kilo's `KILO_CONFIG_CONTENT`) under which every tool asks. */
export const ASK = '{"permission":"ask"}';
/** Reading, searching and listing allowed; everything else asks (so `run` rejects it). */
export const READ_ONLY = JSON.stringify({
  permission: { '*': 'ask', read: 'allow', grep: 'allow', glob: 'allow', list: 'allow' },
});

/**
 * `run` rejects what would be asked; OpenCode's own defaults allow edits and commands, so the default asks (the
 * inline config outranks the project's): reads too, so read-only allows the reading tools. bypass: what the project
 * config allows, as the lab ran it.
 */
export const commandLine = {
  command: 'opencode',
  flags: ['run', '--format', 'json'],
  permissions: { default: [], 'read-only': [], bypass: [] },
  permissionEnv: { default: { OPENCODE_CONFIG_CONTENT: ASK }, 'read-only': { OPENCODE_CONFIG_CONTENT: READ_ONLY } },
} satisfies CommandLine;
