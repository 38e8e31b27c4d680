/**
 * Shell commands that are file operations (docs/contract.md "Shell commands that are file
 * operations"): Codex's command summarizer (openai/codex `parse_command.rs`), with line ranges.
 */
export type { FileOperation } from './types.js';
export {
  classifyShellCommand,
  shellOperations,
  unwrapShellCommand,
  wrappedScript,
  type ShellOperations,
} from './classify.js';
export { isSmallFormattingCommand } from './formatting.js';
