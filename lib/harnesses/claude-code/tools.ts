/**
 * Claude Code's tool table: docs/harnesses/claude-code.md "Tool mapping", one row per tool. A tool not listed
 * here (MCP, web, todo, Task/Agent, ...) becomes `unknown`.
 */
import type { ToolCall } from '../../kernel/tool-call.js';
import { list, namedSkill, read, search, shell, silent, toolTable, write } from '../../kernel/tool-rules.js';
import { resultText } from './dialect.js';

/**
 * Claude reports no stable exit code for Bash, but a failed Bash's result is `Exit code N`:
 * when that is the whole text, exit code 1 tells a search that matched nothing (docs/contract.md).
 */
function searchExitCode(call: ToolCall): number | undefined {
  return resultText(call.output) === 'Exit code 1' ? 1 : undefined;
}

export const tools = toolTable({
  Read: read({ path: 'file_path', offset: 'offset', limit: 'limit' }),
  Write: write('file_path'),
  Edit: write('file_path'),
  MultiEdit: write('file_path'),
  NotebookEdit: write('notebook_path'),
  Grep: search({ query: 'pattern', path: 'path' }),
  Glob: search({ query: 'pattern', path: 'path' }),
  LS: list('path'),
  Bash: shell('command', { searchExitCode }),
  Skill: namedSkill('skill'),
  // Native delivery of --json-schema output: neither the call nor its result is an event.
  StructuredOutput: silent,
});
