/**
 * `permissions: 'ask'` at the call: its callback is required and goes with it alone, and a harness with no channel for
 * approvals in its native mode refuses it, naming the ACP preset that has one.
 */
import { describe, expect, test } from 'vitest';
import { acpAgents, harnesses, spawnHarness, type SpawnHarnessOptions } from '../../../lib/index.js';
import { askThrough } from '../../../lib/runtime/run/spawn-options.js';

const start = (options: unknown) => () => spawnHarness(options as SpawnHarnessOptions);
const deny = () => ({ deny: true }) as const;

describe("permissions 'ask': the options", () => {
  test('the callback is required, of the right kind, and goes with ask alone', () => {
    expect(start({ harness: 'claude-code', prompt: 'p', permissions: 'ask' })).toThrow(
      new TypeError("spawnHarness: permissions 'ask' needs onPermission (the callback that decides each call)"),
    );
    expect(start({ harness: 'claude-code', prompt: 'p', onPermission: deny })).toThrow(
      new TypeError("spawnHarness: onPermission goes with permissions: 'ask'"),
    );
    expect(start({ harness: 'claude-code', prompt: 'p', permissionTimeoutMs: 1000 })).toThrow(
      new TypeError("spawnHarness: permissionTimeoutMs goes with permissions: 'ask'"),
    );
    expect(start({ harness: 'qwen', prompt: 'p', permissions: 'ask', onPermission: 'yes' })).toThrow(
      new TypeError('spawnHarness: onPermission must be a function, got "yes"'),
    );
    expect(
      start({ harness: 'qwen', prompt: 'p', permissions: 'ask', onPermission: deny, permissionTimeoutMs: 0 }),
    ).toThrow(new TypeError('spawnHarness: permissionTimeoutMs must be a positive integer (milliseconds), got 0'));
  });

  test('a harness without a channel refuses it, naming the ACP preset that has one', () => {
    expect(start({ harness: 'codex', prompt: 'p', permissions: 'ask', onPermission: deny })).toThrow(
      new Error(
        "spawnHarness: codex has no channel for approvals in its own mode, so permissions 'ask' cannot apply; its " +
          "ACP mode has one: { harness: 'acp', agent: 'codex', permissions: 'ask' }",
      ),
    );
    expect(start({ harness: 'pi', prompt: 'p', permissions: 'ask', onPermission: deny })).toThrow(
      new Error("spawnHarness: pi has no channel for approvals in its own mode, so permissions 'ask' cannot apply"),
    );
  });

  test('each harness without a channel is in the table, which names only presets there are', () => {
    const cannot = [...harnesses.values()].filter((harness) => harness.launch && harness.client === undefined);
    expect(cannot.map((harness) => harness.name).sort()).toEqual(Object.keys(askThrough).sort());
    for (const preset of Object.values(askThrough)) if (preset !== undefined) expect(acpAgents.has(preset)).toBe(true);
  });
});
