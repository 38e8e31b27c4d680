/**
 * What each answer becomes for Claude Code and Qwen Code (docs/library.md "Approvals"), on requests as the CLIs sent
 * them (Claude Code 2.1.332's Bash and Write asks, Qwen Code 0.24.4's shell ask): the scopes offered, and the
 * `control_response` each decision writes.
 */
import { describe, expect, test } from 'vitest';
import { dialect as claude } from '../../../lib/harnesses/claude-code/approvals.js';
import { dialect as qwen } from '../../../lib/harnesses/qwen/approvals.js';
import { decisionOf } from '../../../lib/kernel/approvals.js';

const bash = {
  subtype: 'can_use_tool',
  tool_name: 'Bash',
  input: { command: 'touch denied.txt', description: 'Create denied.txt' },
  permission_suggestions: [
    {
      type: 'addRules',
      rules: [{ toolName: 'Bash', ruleContent: 'touch denied.txt' }],
      behavior: 'allow',
      destination: 'localSettings',
    },
    { type: 'addDirectories', directories: ['/home/user/project'], destination: 'session' },
    { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
  ],
  tool_use_id: 'toolu_01Deny1',
};
const write = {
  subtype: 'can_use_tool',
  tool_name: 'Write',
  input: { file_path: '/home/user/project/w1.txt', content: 'x' },
  permission_suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
  tool_use_id: 'toolu_01Write3',
};

describe('Claude Code', () => {
  test('the scopes follow the suggestions: a rule makes session and always, a session mode session only', () => {
    expect(claude.scopes(bash)).toEqual(['once', 'session', 'always']);
    expect(claude.scopes(write)).toEqual(['once', 'session']);
    expect(claude.scopes({ ...write, permission_suggestions: undefined })).toEqual(['once']);
  });

  test('allow: the input (or the rewrite); session: the rule moved to the session, not the wider mode', () => {
    expect(claude.response({ allow: 'once' }, bash)).toEqual({ behavior: 'allow', updatedInput: bash.input });
    expect(claude.response({ allow: 'once', input: { command: 'ls' } }, bash)).toEqual({
      behavior: 'allow',
      updatedInput: { command: 'ls' },
    });
    expect(claude.response({ allow: 'session' }, bash)).toEqual({
      behavior: 'allow',
      updatedInput: bash.input,
      updatedPermissions: [{ ...bash.permission_suggestions[0], destination: 'session' }],
    });
    expect(claude.response({ allow: 'always' }, bash)).toEqual({
      behavior: 'allow',
      updatedInput: bash.input,
      updatedPermissions: [bash.permission_suggestions[0]],
    });
    // An edit's only session grant is the one Claude's own prompt offers: acceptEdits.
    expect(claude.response({ allow: 'session' }, write)).toMatchObject({
      updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
    });
  });

  test('deny: the message (a stock one without); stop: interrupt', () => {
    expect(claude.response({ deny: true, message: 'no', stop: false }, bash)).toEqual({
      behavior: 'deny',
      message: 'no',
    });
    expect(claude.response({ deny: true, stop: true }, bash)).toEqual({
      behavior: 'deny',
      message: 'The caller denied this tool call.',
      interrupt: true,
    });
  });
});

describe('Qwen Code', () => {
  const shell = { subtype: 'can_use_tool', tool_name: 'run_shell_command', input: { command: 'touch a' } };

  test('once only; a rewrite, a session grant and a stop are refused', () => {
    expect(qwen.scopes(shell)).toEqual(['once']);
    for (const answer of [
      { allow: 'once', input: { command: 'ls' } },
      { allow: 'session' },
      { deny: true, stop: true },
    ])
      expect(decisionOf(answer, qwen.answers, qwen.scopes(shell))).toMatchObject({ refused: 'unexpressible' });
  });

  test('allow runs its own input; deny carries the message', () => {
    expect(qwen.response({ allow: 'once' }, shell)).toEqual({ behavior: 'allow', updatedInput: shell.input });
    expect(qwen.response({ deny: true, message: 'no', stop: false }, shell)).toEqual({
      behavior: 'deny',
      message: 'no',
    });
  });
});
