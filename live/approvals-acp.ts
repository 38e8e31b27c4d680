/** The ACP rows' tools for the approvals cases (approvals.ts): each agent's shell and write, in its own shapes. */
// Types only: approvals.ts spreads these rows into its own.
import type { AskRow } from './approvals.js';

export const acpAskRows: Record<string, AskRow> = {
  'claude-acp': {
    shell: (command) => ({ name: 'Bash', input: { command, description: 'Run it' } }),
    write: (file_path, content) => ({ name: 'Write', input: { file_path, content } }),
  },
  'qwen-acp': {
    shell: (command) => ({
      name: 'run_shell_command',
      input: { command, description: 'Run it', is_background: false },
    }),
    write: (file_path, content) => ({ name: 'write_file', input: { file_path, content } }),
  },
  'gemini-acp': {
    shell: (command) => ({ name: 'run_shell_command', input: { command } }),
    write: (file_path, content) => ({ name: 'write_file', input: { file_path, content } }),
  },
  'opencode-acp': {
    shell: (command) => ({ name: 'bash', input: { command, description: 'Run it' } }),
    write: (filePath, content) => ({ name: 'write', input: { filePath, content } }),
  },
  'copilot-acp': {
    shell: (command) => ({ name: 'bash', input: { command, description: 'Run it' } }),
    write: (path, file_text) => ({ name: 'create', input: { path, file_text } }),
  },
};
