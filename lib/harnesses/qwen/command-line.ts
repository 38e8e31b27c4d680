import { PERMISSIONS, type CommandLine } from '../../kernel/command-line.js';

/** How the qwen CLI is started for one prompt, by permissions value (lib/kernel/command-line.ts). */
export const commandLine = {
  command: 'qwen',
  // Its parser takes no prompt after `--`; piped stdin is the prompt.
  promptStdin: true,
  flags: [PERMISSIONS, '--output-format', 'stream-json'],
  permissions: {
    default: ['--approval-mode', 'default'],
    plan: ['--approval-mode', 'plan'],
    bypass: ['--approval-mode', 'yolo'],
    // Each call Qwen would ask about comes as a control request on stdout (its copy of Claude Code's protocol).
    ask: ['--approval-mode', 'default', '--input-format', 'stream-json'],
  },
} satisfies CommandLine;
