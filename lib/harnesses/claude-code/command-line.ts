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
    // Each call Claude would ask about comes as a control request on stdout (control.ts answers it on stdin).
    ask: ['--permission-mode', 'default', '--input-format', 'stream-json', '--permission-prompt-tool', 'stdio'],
  },
  continues: ['--resume', '-r', '--continue', '-c', '--fork-session', '--session-id', '--from-pr'],
} satisfies CommandLine;
