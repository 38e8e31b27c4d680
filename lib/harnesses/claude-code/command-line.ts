import { type CommandLine } from '../../kernel/command-line.js';

/**
 * As root, Claude Code refuses --dangerously-skip-permissions unless IS_SANDBOX=1 is set. Its default mode in
 * --print refuses writes and Bash (a tool_result error), and says so, whatever a settings file's defaultMode.
 */
export const commandLine = {
  command: 'claude',
  // Read whole from stdin: no option parser sees it, and no argument length limit applies.
  promptStdin: true,
  flags: ['--print', '--output-format', 'stream-json', '--verbose'],
  permissions: {
    default: ['--permission-mode', 'default'],
    plan: ['--permission-mode', 'plan'],
    bypass: ['--dangerously-skip-permissions'],
  },
} satisfies CommandLine;
