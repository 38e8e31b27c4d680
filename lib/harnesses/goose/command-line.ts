import { type CommandLine } from '../../kernel/command-line.js';

/** GOOSE_MODE decides, and unset it is auto (every call allowed); approve, headless, fails the call instead. */
export const commandLine = {
  command: 'goose',
  promptFlag: '--text',
  flags: ['run', '--quiet', '--output-format', 'stream-json'],
  permissions: { default: [], bypass: [] },
  permissionEnv: { default: { GOOSE_MODE: 'approve' }, bypass: { GOOSE_MODE: 'auto' } },
  continues: ['--resume', '-r', '--name', '-n', '--session-id', '--path'],
} satisfies CommandLine;
