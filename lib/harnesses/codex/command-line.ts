import { type CommandLine } from '../../kernel/command-line.js';

/** exec never asks: its sandbox is what limits it, read-only unless bypassed. */
export const commandLine = {
  command: 'codex',
  flags: ['exec', '--json'],
  permissions: {
    default: ['--sandbox', 'read-only'],
    'read-only': ['--sandbox', 'read-only'],
    bypass: ['--dangerously-bypass-approvals-and-sandbox'],
  },
} satisfies CommandLine;
