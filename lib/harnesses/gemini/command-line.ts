import { type CommandLine } from '../../kernel/command-line.js';

/** Headless, a tool that needs confirmation is refused unless yolo (--yolo is deprecated for --approval-mode). */
export const commandLine = {
  command: 'gemini',
  promptFlag: '--prompt',
  promptFirst: true,
  flags: ['--output-format', 'stream-json'],
  permissions: {
    default: ['--approval-mode', 'default'],
    plan: ['--approval-mode', 'plan'],
    bypass: ['--approval-mode', 'yolo'],
  },
} satisfies CommandLine;
