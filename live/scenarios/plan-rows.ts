/**
 * The `plan` scenario of the rows whose CLI has a plan mode (`permissions: 'plan'`): the `defaults` round under it,
 * the workspace unchanged afterwards, and the exact events it gave on the pinned versions (docs/library.md "What
 * `default` was measured to allow"; the captures are test/fixtures/<harness>/lab/permission-plan.jsonl).
 */
import { expect } from 'vitest';
import type { EventBody } from '../../lib/kernel/events.js';
import type { Expected, Scenario } from '../scenario.js';
import { defaultsScenario } from './defaults.js';
import { denied, done, listOk, notOffered, readOk, rm, searchOk, wrote } from './defaults-events.js';
import { claudeTools, geminiTools, qwenDefaults, qwenTools } from './defaults-rows.js';

const plan = (scenario: Scenario): Scenario => ({ ...scenario, name: 'plan', permissions: 'plan' });

const inPlan = (x: Expected, path: string) => `Cannot write to ${x.path(path)} while in plan mode.`;
/**
 * Claude Code's plan mode hands Bash to its auto mode, whose check runs on Anthropic's server: through the scripted
 * model it cannot, and Claude Code says so in a `system` subtype the page does not name (so unknown, kept whole).
 */
const noServerCheck = (x: Expected): EventBody => {
  const { host } = new URL(x.url);
  return {
    type: 'unknown',
    raw: {
      type: 'system',
      subtype: 'informational',
      content:
        "Auto mode can't check actions in this session. Its safety check runs on the server, and your requests go " +
        `through ${host}, which doesn't pass it through. Nobody can be asked to approve actions in this session, so ` +
        'every action that needs the check is refused. To run these actions, use another permission mode. To use ' +
        `auto mode, ask whoever runs ${host} to pass Claude Code's server-side safety check through: ` +
        'https://code.claude.com/docs/en/permission-modes#server-side-classifier-review',
      isMeta: false,
      timestamp: expect.any(String),
      uuid: expect.any(String),
      level: 'warning',
      tag: 'auto_mode_no_server_check',
      session_id: expect.any(String),
    },
  };
};
const autoModeUnavailable =
  'Auto mode is unavailable: its safety check does not run for this session, so Bash was not run. Other actions that ' +
  "need the check will be denied too, and retrying won't help. Finish what you can without them, then tell the user " +
  'what is blocked and that they can switch to another permission mode.';

/** Gemini's plan mode writes only its plans directory, under the run's home, named by its session. */
const outsidePlans = (x: Expected, tool: string, path: string): EventBody => ({
  type: 'warning',
  code: 'permission_denied',
  message: expect.stringMatching(
    new RegExp(
      `^Permission denied: ${tool}: Access denied: plan path \\(${x.path(path)}\\) must be within the designated ` +
        'plans directory \\(/.+/\\.gemini/tmp/project/[0-9a-f-]{36}/plans\\)\\. \\(the plan mode writes only its ' +
        'plans directory\\)$',
    ),
  ) as string,
});

/** The plan scenario of each row that has one. */
export const plans: Readonly<Record<string, Scenario>> = {
  'claude-code': plan(
    defaultsScenario(claudeTools, {
      events: (x) => [
        readOk(x),
        searchOk(x),
        listOk(x),
        denied('Write', inPlan(x, 'src/c.ts')),
        wrote(x, 'src/c.ts'),
        denied('Edit', inPlan(x, 'src/a.ts')),
        wrote(x, 'src/a.ts'),
        noServerCheck(x),
        denied('Bash', autoModeUnavailable),
        rm(x),
        done,
      ],
    }),
  ),
  // Shell commands are left out as in the default mode; the writes reach the tools, which refuse the path.
  gemini: plan(
    defaultsScenario(geminiTools, {
      events: (x) => [
        readOk(x),
        searchOk(x),
        listOk(x),
        wrote(x, 'src/c.ts'),
        outsidePlans(x, 'write_file', 'src/c.ts'),
        wrote(x, 'src/a.ts'),
        outsidePlans(x, 'replace', 'src/a.ts'),
        rm(x),
        notOffered('run_shell_command', '"update_topic", "grep_search", "replace"'),
        done,
      ],
    }),
  ),
  // The same refusals as the default mode's, listed in the result.
  qwen: plan(defaultsScenario(qwenTools, { events: qwenDefaults.events })),
};
