/**
 * Kilo's tool table: docs/harnesses/kilo.md "Tools", beside docs/harnesses/opencode.md's. Every row Kilo shares with
 * OpenCode
 * is OpenCode's row (lib/harnesses/opencode/tools.ts); the ones a difference restates keep
 * OpenCode's behaviour under Kilo's words. A tool not listed (including OpenCode's
 * `apply_patch`, `lsp`, `agent_manager` and `todo`, which Kilo does not offer) is `unknown`.
 */
import type { ToolRule } from '../../kernel/harness.js';
import { rule, toolTable } from '../../kernel/tool-rules.js';
import { rows as opencode } from '../opencode/tools.js';

/** OpenCode's row under the words of a Kilo difference. */
function restated(doc: string, row: ToolRule): ToolRule {
  return rule(doc, (call) => row(call));
}

/** Kilo's own tools (difference 1): named so the table lists every tool Kilo offers. */
const kiloOwn = rule("unknown: a tool of Kilo's own (difference 1)", () => null);

export const tools = toolTable({
  read: opencode.read,
  write: opencode.write,
  edit: opencode.edit,
  grep: opencode.grep,
  glob: opencode.glob,
  bash: restated(
    'command, `command` = `command`, or the file operations it is (docs/contract.md shell rules); ' +
      '`state.input.workdir` is its working directory, relative paths resolve against it; exit code from ' +
      '`state.metadata.exit` (difference 2)',
    opencode.bash,
  ),
  background_process: opencode.background_process,
  task: restated(
    'orchestration `subagent_completed`, or `subagent_failed` when its status is `error`; `subagent_id` = ' +
      '`state.metadata.sessionId` (the child session), `subagent_name` = `input.subagent_type`; without the child ' +
      'session id, unknown (difference 6)',
    opencode.task,
  ),
  skill: restated(
    'skill, `skill_name` = `input.name`, `path` = `<state.metadata.dir>/SKILL.md`, else `skills/<name>/SKILL.md` ' +
      '(difference 7)',
    opencode.skill,
  ),
  todowrite: opencode.todowrite,
  todoread: opencode.todoread,
  board_post: kiloOwn,
  board_read: kiloOwn,
  kilo_local_recall: kiloOwn,
  schedule_wakeup: kiloOwn,
  cancel_wakeup: kiloOwn,
});
