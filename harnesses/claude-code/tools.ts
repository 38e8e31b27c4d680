/**
 * Claude Code's tool table: claude-code.md "Tool mapping", one row per tool. A tool not listed
 * here (MCP, web, todo, Task/Agent, ...) becomes `unknown`.
 */
import { list, namedSkill, read, search, shell, silent, toolTable, write } from '../../lib/tool-rules.js';

export const tools = toolTable({
  Read: read({ path: 'file_path', offset: 'offset', limit: 'limit' }),
  Write: write('file_path'),
  Edit: write('file_path'),
  MultiEdit: write('file_path'),
  NotebookEdit: write('notebook_path'),
  Grep: search({ query: 'pattern', path: 'path' }),
  Glob: search({ query: 'pattern', path: 'path' }),
  LS: list('path'),
  Bash: shell('command'),
  Skill: namedSkill('skill'),
  // Native delivery of --json-schema output: neither the call nor its result is an event.
  StructuredOutput: silent,
});
