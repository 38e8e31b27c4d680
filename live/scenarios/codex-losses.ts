/**
 * Codex without losses (docs/harnesses/codex.md "Runs: stdout and the rollout"): under the default permissions
 * (`--sandbox read-only`, approval `never`) the scripted model reads, searches, lists, adds and edits a file (two
 * patches the sandbox refuses), asks to leave the sandbox (refused), runs a command the sandbox makes fail, and runs
 * one in a `workdir`. Stdout alone loses the patches, the escalation and (usually) the sandbox-denied command, and says
 * no command's directory: from spawnHarness (stdout joined to the rollout) and from the rollout read back alike, every
 * call is one event with its directory, and nothing was written.
 */
import type { EventBody } from '../../lib/kernel/events.js';
import type { ToolUse } from '../../lib/testing/index.js';
import type { Expected, Scenario } from '../scenario.js';
import { denied, listOk, readOk, searchOk } from './defaults-events.js';

const exec = (cmd: string, more: Record<string, string> = {}): ToolUse => ({
  name: 'exec_command',
  input: { cmd, ...more },
});
const patch = (body: string): ToolUse => ({
  name: 'apply_patch',
  custom: true,
  input: `*** Begin Patch\n${body}*** End Patch\n`,
});

const patchRefused = 'patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings';
const escalationRefused =
  'approval policy is Never; reject command — you cannot ask for escalated permissions if the approval policy is Never';
const escalation = 'touch escalated.txt && rm notes.txt';
const sandboxed = 'touch sandboxed.txt && rm README.md';
const done = 'Nothing was changed.';

/** Each call's events, in the order the model made them; `refusals`: with the policy's `permission_denied`. */
function calls(x: Expected, refusals: boolean): EventBody[] {
  const refused = (tool: string, reason: string) => (refusals ? [denied(tool, reason)] : []);
  return [
    readOk(x),
    searchOk(x),
    listOk(x),
    { type: 'write', path: x.path('src/c.ts'), is_success: false },
    ...refused('apply_patch', patchRefused),
    { type: 'write', path: x.path('src/a.ts'), is_success: false },
    ...refused('apply_patch', patchRefused),
    { type: 'command', command: escalation, working_directory: x.workspace, is_success: false },
    ...refused('exec_command', escalationRefused),
    { type: 'command', command: sandboxed, working_directory: x.workspace, exit_code: 1, is_success: false },
    {
      type: 'command',
      command: 'echo ran-in-src',
      working_directory: x.path('src'),
      exit_code: 0,
      is_success: true,
    },
    { type: 'agent', message: done },
    { type: 'usage', tokens: { input: 10800, output: 360, cache_read: 0, cache_write: 0, reasoning: 0 } },
  ];
}

export const codexLosses: Scenario = {
  name: 'without losses',
  prompt: 'Look around, try to change things, then run a command in src.',
  permissions: 'default',
  unchanged: true,
  turns: () => [
    { tools: [exec('cat README.md')] },
    { tools: [exec('grep -rn hello .')] },
    { tools: [exec('ls src')] },
    { tools: [patch('*** Add File: src/c.ts\n+x\n')] },
    { tools: [patch('*** Update File: src/a.ts\n@@\n-  return `hello ${name}`;\n+  return `bye ${name}`;\n')] },
    {
      tools: [
        exec(escalation, { sandbox_permissions: 'require_escalated', justification: 'Needs to write (escalated).' }),
      ],
    },
    { tools: [exec(sandboxed)] },
    { tools: [exec('echo ran-in-src', { workdir: 'src' })] },
    { text: done },
  ],
  exitCode: 0,
  // Stdout, stderr (the refusals) and the rollout race: each call once, in any order.
  unordered: true,
  // The refusals from stderr, once each (the rollout's own say the same and are not repeated).
  events: (x) => calls(x, true),
  // Read back, the rollout's refusals are its own; in the order Codex wrote it.
  session: (x) => calls(x, true),
};
