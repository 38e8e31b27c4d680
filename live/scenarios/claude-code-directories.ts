/**
 * Claude Code's shell directory (claude-code.md "Shell directory"), on the real CLI: a `cd` kept by a call that
 * succeeded, one a failed call does not keep, relative file tools after it, and a subagent that starts where its
 * parent is and keeps none of its own. Every path and working directory is then checked on the workspace, from
 * stdout and from the session file alike (live/paths.ts). Run in the explicit bypass mode: the agent acts.
 */
import { expect } from 'vitest';
import type { EventBody } from '../../lib/kernel/events.js';
import type { ToolUse } from '../../lib/testing/index.js';
import type { Expected, Scenario } from '../scenario.js';

const bash = (command: string): ToolUse => ({ name: 'Bash', input: { command } });
const ete = "l'été.md";
const naive = 'naïve résumé.md';
const files = { [`docs/${ete}`]: 'Summer notes.\n', [`docs/${naive}`]: 'A naive summary.\n' };

/** A scenario's events where stdout and the session file agree. */
const both = (events: (x: Expected) => EventBody[]) => ({ events, session: events });

const shellDirectory: Scenario = {
  name: 'shell directory',
  prompt: 'Move into docs and work there.',
  files,
  permissions: 'bypass',
  turns: () => [
    { text: 'Trying docs first.', tools: [bash('cd docs; false')] },
    { tools: [bash('cat README.md')] },
    { tools: [bash(`cd docs && cat "${ete}"`)] },
    { tools: [bash(`cat "${naive}"`)] },
    { tools: [bash('ls')] },
    { tools: [bash('pwd')] },
    { tools: [{ name: 'Read', input: { file_path: ete } }] },
    { tools: [{ name: 'Write', input: { file_path: 'new.md', content: 'draft\n' } }] },
    { tools: [{ name: 'Edit', input: { file_path: 'new.md', old_string: 'draft', new_string: 'final' } }] },
    { text: 'Worked in docs.' },
  ],
  exitCode: 0,
  leaves: { 'docs/new.md': 'final\n', 'new.md': null },
  // The failed call keeps nothing (bash:success): README.md is the project's. The cd that succeeded is kept
  // (bash:cd) for every later Bash operand and every relative file path (call:paths); `ls` names no path.
  ...both((x) => [
    { type: 'agent', message: 'Trying docs first.' },
    { type: 'command', command: 'cd docs; false', working_directory: x.workspace, is_success: false },
    { type: 'read', path: x.path('README.md'), is_success: true },
    { type: 'read', path: x.path(`docs/${ete}`), is_success: true },
    { type: 'read', path: x.path(`docs/${naive}`), is_success: true },
    { type: 'list', is_success: true },
    { type: 'command', command: 'pwd', working_directory: x.path('docs'), is_success: true },
    { type: 'read', path: x.path(`docs/${ete}`), is_success: true },
    { type: 'write', path: x.path('docs/new.md'), is_success: true },
    { type: 'write', path: x.path('docs/new.md'), is_success: true },
    { type: 'agent', message: 'Worked in docs.' },
  ]),
};

const SUBAGENT = 'SUBAGENT-TASK';

const agentInput = {
  description: 'Read in docs',
  prompt: `${SUBAGENT}: read the notes in the current folder.`,
  subagent_type: 'general-purpose',
  run_in_background: false,
};

const subagentDirectory: Scenario = {
  name: 'subagent directory',
  prompt: 'Move into docs, then hand a task to a subagent.',
  files,
  permissions: 'bypass',
  conversations: () => [
    {
      name: 'subagent',
      match: { user: SUBAGENT },
      turns: [
        { text: "Reading in the parent's folder.", tools: [bash(`cat "${ete}"`)] },
        { tools: [bash('cd ..')] },
        { tools: [bash(`cat "${naive}"`)] },
        { tools: [{ name: 'Write', input: { file_path: 'sub.md', content: 'from the subagent\n' } }] },
        { text: 'Subagent done.' },
      ],
    },
  ],
  turns: () => [
    { tools: [bash('cd docs')] },
    {
      tools: [
        {
          name: 'Agent',
          input: agentInput,
        },
      ],
    },
    { tools: [bash(`cat "${naive}"`)] },
    { text: 'The subagent read the notes.' },
  ],
  exitCode: 0,
  leaves: { 'docs/sub.md': 'from the subagent\n', 'sub.md': null },
  // The subagent starts in docs, where its parent is (subagent:start); its `cd ..` is kept neither for its own
  // next call nor for its parent (subagent:keeps). On stdout its task records are orchestration (the id is the
  // Agent call's: the scripted server numbers ids in serving order, main turn 1's message 3 and call 4) and its
  // text is not printed.
  events: (x) => [
    { type: 'command', command: 'cd docs', working_directory: x.workspace, is_success: true },
    {
      type: 'orchestration',
      action: 'subagent_started',
      subagent_id: 'toolu_scripted_0004',
      subagent_name: 'general-purpose',
      is_success: true,
    },
    ...subagentTools(x),
    {
      type: 'orchestration',
      action: 'subagent_completed',
      subagent_id: 'toolu_scripted_0004',
      subagent_name: 'general-purpose',
      is_success: true,
    },
    { type: 'read', path: x.path(`docs/${naive}`), is_success: true },
    { type: 'agent', message: 'The subagent read the notes.' },
  ],
  // The session file has no task records: the Agent call is unknown, carrying the call and its result (whose
  // hand-back text names the run's agent id and duration); the subagent's own file, merged in, gives its text.
  session: (x) => [
    { type: 'command', command: 'cd docs', working_directory: x.workspace, is_success: true },
    { type: 'agent', message: "Reading in the parent's folder." },
    ...subagentTools(x),
    { type: 'agent', message: 'Subagent done.' },
    {
      type: 'unknown',
      raw: {
        tool_use: { type: 'tool_use', id: 'toolu_scripted_0004', name: 'Agent', input: agentInput },
        tool_result: {
          type: 'tool_result',
          tool_use_id: 'toolu_scripted_0004',
          content: [{ type: 'text', text: expect.stringContaining('\n  Subagent done.\n') }],
        },
      },
    },
    { type: 'read', path: x.path(`docs/${naive}`), is_success: true },
    { type: 'agent', message: 'The subagent read the notes.' },
  ],
};

function subagentTools(x: Expected): EventBody[] {
  return [
    { type: 'read', path: x.path(`docs/${ete}`), is_success: true },
    { type: 'command', command: 'cd ..', working_directory: x.path('docs'), is_success: true },
    { type: 'read', path: x.path(`docs/${naive}`), is_success: true },
    { type: 'write', path: x.path('docs/sub.md'), is_success: true },
  ];
}

export const claudeCodeDirectories: Scenario[] = [shellDirectory, subagentDirectory];
