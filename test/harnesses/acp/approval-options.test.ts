/**
 * The per-agent option table (approval-options.ts) on every permission request of the real ACP captures: which
 * option answers each scope and the deny, per agent; what an agent does not offer stays out.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { offeredAnswers, optionsFor } from '../../../lib/harnesses/acp/approval-options.js';
import { fixturePath } from '../../helpers.js';

/** The options of each permission request of a capture, and the agent's name from its initialize answer. */
function requests(file: string): { name: string | undefined; options: unknown[] }[] {
  const messages = readFileSync(fixturePath(file), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);
  const name = messages.find((m) => m.result?.agentInfo)?.result.agentInfo.name as string | undefined;
  return messages
    .filter((m) => m.method === 'session/request_permission')
    .map((m) => ({ name, options: m.params.options as unknown[] }));
}

describe('ACP approval options', () => {
  test.each([
    ['acp/claude-agent-acp/permission-default.jsonl', 'claude', { once: 'allow' }, 'reject'],
    ['acp/claude-code-acp/edit.jsonl', 'claude-code', { once: 'allow' }, 'reject'],
    ['acp/codex-acp/permission-default.jsonl', 'codex', { once: 'approved' }, 'abort'],
    ['acp/copilot/permission-default.jsonl', 'copilot', { once: 'allow_once', session: 'allow_always' }, 'reject_once'],
    ['acp/opencode/permission-default.jsonl', 'opencode', { once: 'once', session: 'always' }, 'reject'],
    ['acp/qwen/permission-default.jsonl', 'qwen', { once: 'proceed_once' }, 'cancel'],
    ['acp/gemini/edit.jsonl', 'gemini', { once: 'proceed_once', session: 'proceed_always' }, 'cancel'],
    ['acp/droid/fail.jsonl', 'droid', { once: 'proceed_once' }, 'cancel'],
  ])('%s: by the preset and by agentInfo.name alike', (file, preset, scopes, deny) => {
    const found = requests(file);
    expect(found.length).toBeGreaterThan(0);
    for (const { name, options } of found) {
      const byPreset = offeredAnswers(optionsFor(preset, undefined), options);
      expect({ scopes: byPreset.scopes, deny: byPreset.deny }).toEqual({ scopes, deny });
      expect(offeredAnswers(optionsFor(undefined, name), options)).toEqual(byPreset);
    }
  });

  test("Qwen's auto-mode request: never the allow_once that switches the mode", () => {
    const options = [
      {
        optionId: 'proceed_once_and_switch_to_default',
        name: 'Switch to Default Mode and allow once',
        kind: 'allow_once',
      },
      { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
    ];
    expect(offeredAnswers(optionsFor('qwen', undefined), options).scopes).toEqual({ once: 'proceed_once' });
    // Without its row, two allow_once options cannot be told apart: none is offered.
    expect(offeredAnswers(undefined, options)).toEqual({
      rule: 'acp-approvals/other',
      scopes: {},
      deny: 'cancel',
      denyEndsTurn: undefined,
    });
  });

  test("Qwen's command request (live, 0.24.4): always is the project's rule, never the user's", () => {
    const options = ['proceed_always_project', 'proceed_always_user', 'proceed_once', 'cancel'].map((optionId) => ({
      optionId,
      name: optionId,
      kind: optionId === 'cancel' ? 'reject_once' : optionId === 'proceed_once' ? 'allow_once' : 'allow_always',
    }));
    expect(offeredAnswers(optionsFor('qwen', undefined), options)).toMatchObject({
      scopes: { once: 'proceed_once', always: 'proceed_always_project' },
      deny: 'cancel',
    });
  });

  test("Gemini's proceed_always_and_save (a rule for the command's first word, every project) is never always", () => {
    const options = [
      { optionId: 'proceed_always_and_save', name: 'Allow for all future sessions', kind: 'allow_always' },
      { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
      { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
    ];
    const offered = offeredAnswers(optionsFor('gemini', undefined), options);
    expect({ scopes: offered.scopes, deny: offered.deny }).toEqual({
      scopes: { once: 'proceed_once', session: 'proceed_always' },
      deny: 'cancel',
    });
  });

  test("Claude's ExitPlanMode request: its allow options switch the mode, only its reject is offered", () => {
    const options = [
      { kind: 'allow_always', name: 'Yes, and auto-accept edits', optionId: 'acceptEdits' },
      { kind: 'allow_once', name: 'Yes, and manually approve edits', optionId: 'default' },
      { kind: 'reject_once', name: 'No, keep planning', optionId: 'plan' },
    ];
    expect(offeredAnswers(optionsFor('claude', undefined), options)).toMatchObject({ scopes: {}, deny: 'plan' });
  });

  test('an unknown agent: its one allow_once and its one reject_once; malformed options left out', () => {
    const options = [
      { optionId: 'yes', kind: 'allow_once' },
      { optionId: 'forever', kind: 'allow_always' },
      { kind: 'allow_once' },
      'junk',
      { optionId: 'no', kind: 'reject_once' },
    ];
    expect(offeredAnswers(optionsFor('crush', 'crush'), options)).toEqual({
      rule: 'acp-approvals/other',
      scopes: { once: 'yes' },
      deny: 'no',
      denyEndsTurn: undefined,
    });
    expect(offeredAnswers(undefined, 'not an array')).toMatchObject({ scopes: {}, deny: undefined });
  });
});
