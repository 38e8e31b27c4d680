/**
 * Shell commands that are file operations (CONTRACT.md "Shell commands that are file
 * operations"): Codex's command summarizer (research/codex.md Part A), with line ranges.
 */
export type { FileOperation } from './types.js';
export { classifyShellCommand, shellOperations, unwrapShellCommand, type ShellOperations } from './classify.js';
export { isSmallFormattingCommand } from './formatting.js';
