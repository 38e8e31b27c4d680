/**
 * Claude Code's shell directory (docs/harnesses/claude-code.md "Shell directory"): the directory each tool call runs
 * in, tracked per agent from the stream alone, as a table of rules and the tracker that applies them. The scripts
 * themselves are read by lib/kernel/shell/directory.ts.
 */
import { homedir } from 'node:os';
import type { RunContext } from '../../kernel/harness.js';
import type { JsonObject } from '../../kernel/json.js';
import { resolvePath } from '../../kernel/paths.js';
import { recordRows } from '../../kernel/record-table.js';
import { BoundedMap } from '../../kernel/bounded-map.js';
import { scriptDirectory, type Directory } from '../../kernel/shell/directory.js';
import { stringField } from '../../kernel/tool-rules.js';
import { resultText } from './dialect.js';

/** docs/harnesses/claude-code.md "Shell directory", one row per thing that moves (or does not move) it. */
export const shellDirectory = recordRows({
  call: {
    handling: "each tool call runs in its agent's directory at the time it is made",
    rules: {
      paths:
        'every relative path of every tool (Bash operands, Read/Write/Edit/MultiEdit/NotebookEdit files, ' +
        'Glob/Grep/LS paths) resolves against it',
      workingDirectory: "a command event's `working_directory` is it, when known",
    },
  },
  bash: {
    handling: "a Bash call of the main agent moves its directory to where the script's shell ended",
    rules: {
      success: 'only when the call succeeded (`is_error` false): a failed call keeps nothing',
      cd: 'top-level `cd` moves it (no operand or `~`: the home directory; `-`: the directory before the last move)',
      subshell: 'a `cd` in parentheses, a command substitution or a function body is never kept',
      pipeline: 'a `cd` in a pipeline or a background job is never kept',
      pushd: '`pushd DIR` moves it; `popd` returns to the matching `pushd` of the same script, and fails without one',
      unknown:
        'a `cd` to a variable, a substitution or a glob, or one inside control flow: unknown (relative paths as ' +
        'given, no `working_directory`) until a later call moves it to a known directory',
      reset: 'a result saying "Shell cwd was reset to DIR": the directory is DIR',
    },
  },
  subagent: {
    handling: 'a subagent (lines with `parent_tool_use_id`)',
    rules: {
      start: "starts in its parent's directory when its Agent or Task call was made",
      keeps: 'its own `cd` is never kept, not even for its next call, and never moves its parent',
    },
  },
  environment: {
    handling: "the CLI's environment (the normalizer's `env` option)",
    rules: { maintain: '`CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR` true: the directory never moves' },
  },
});

const RESET = /Shell cwd was reset to (.+?)\s*$/m;
const TRUE = new Set(['1', 'true', 'yes', 'on']);
const SPAWNS = new Set(['Agent', 'Task']);

/** Where each call of a Claude Code stream runs. */
export interface ShellDirectories {
  /** A tool use was recorded: the directory it runs in (null: not known). */
  start(use: JsonObject, record: JsonObject): Directory;
  /** Its result came: the main agent's directory moves as the call moved it. */
  end(use: JsonObject, start: Directory, is_success: boolean, output: unknown, record: JsonObject): void;
}

export function shellDirectories(run: RunContext): ShellDirectories {
  // The main agent's directory, once moved from the run's.
  let main: Directory | undefined;
  // Where each subagent started, by the id of the call that made it.
  const subagents = new BoundedMap<{ dir: Directory }>(run.limits);
  const maintain = TRUE.has((run.env?.CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR ?? '').toLowerCase());
  const home = run.home ?? run.env?.HOME ?? homedir();
  const current = (): Directory => (main === undefined ? (run.cwd ?? null) : main);

  return {
    start(use, record) {
      const parent = record.parent_tool_use_id;
      const dir = typeof parent === 'string' ? (subagents.get(parent)?.dir ?? current()) : current();
      if (typeof use.id === 'string' && SPAWNS.has(use.name as string)) subagents.set(use.id, { dir });
      return dir;
    },
    end(use, start, is_success, output, record) {
      if (use.name !== 'Bash' || maintain || typeof record.parent_tool_use_id === 'string') return;
      const reset = RESET.exec(resultText(output) ?? '');
      if (reset) main = resolvePath(reset[1]!);
      else if (is_success) {
        const command = stringField(use.input, 'command');
        if (command !== undefined) main = scriptDirectory(command, start, home);
      }
    },
  };
}

/** A session file's directories: every record says where its calls ran (`cwd`), so nothing is tracked. */
export function recordedDirectories(run: RunContext): ShellDirectories {
  return {
    start: (_use, record) =>
      typeof record.cwd === 'string' && record.cwd !== '' ? resolvePath(record.cwd) : (run.cwd ?? null),
    end() {},
  };
}
