/**
 * Each model call counted once (docs/usage.md "Counted once"): one test per trap, on the paired captures' homes and
 * forks made from them as the CLIs write them (homes.ts). Expected figures checked by hand against the files: the
 * Claude Code captures' calls are 120 input and 25 output tokens each; the codex `read` capture's five
 * `token_usage_record` rows sum to 10,300 input, 170 output and 37,100 cache read.
 */
import { afterEach, expect, test } from 'vitest';
import { accountUsage } from '../../../lib/index.js';
import { fixturePath } from '../../helpers.js';
import { forkClaude, forkCodex, homeOf, removeHomes } from './homes.js';

afterEach(removeHomes);

const tokens = (input: number, output: number, cache_read = 0, reasoning = 0) => ({
  input,
  output,
  cache_read,
  cache_write: 0,
  reasoning,
});

test('Claude Code: a message split into content blocks (one message.id on several records) is one call', async () => {
  // The subagent capture writes msg_fake_main_0 and msg_fake_sub_0 as two records each: 6 records, 4 calls.
  const report = await accountUsage({ homes: [homeOf('claude-code/subagent')] }, { by: ['subagent'] });
  expect(report.rows.map(({ group, calls, tokens }) => ({ group, calls, tokens }))).toEqual([
    { group: { subagent: '(main)' }, calls: 2, tokens: tokens(240, 50) },
    { group: { subagent: 'general-purpose' }, calls: 2, tokens: tokens(240, 50) },
  ]);
  expect(report.duplicates).toBe(0);
});

test("Claude Code: a fork restating its parent's calls counts only its own, whichever file is read first", async () => {
  const home = homeOf('claude-code/bash');
  forkClaude(home);
  const report = await accountUsage({ homes: [home] }, { by: ['session'] });
  expect(report.rows.map(({ group, calls, tokens }) => ({ group, calls, tokens }))).toEqual([
    { group: { session: '0f0f0f0f-0000-4000-8000-000000000001' }, calls: 1, tokens: tokens(700, 9) },
    { group: { session: 'c87769bd-e555-469c-9e50-6bbdc54002bf' }, calls: 11, tokens: tokens(1320, 275) },
  ]);
  expect(report.duplicates).toBe(11);
});

test("Codex: a fork's running totals start from its parent's; its own per-call records are what counts", async () => {
  const home = homeOf('codex/read');
  forkCodex(home);
  const report = await accountUsage({ homes: [home] }, { by: ['session'] });
  expect(report.rows.map(({ group, calls, tokens }) => ({ group, calls, tokens }))).toEqual([
    { group: { session: '01a23332-a378-7021-bbef-638214f98eab' }, calls: 5, tokens: tokens(10300, 170, 37100) },
    // 600 input of which 100 cached: 500 input, 100 cache read (the shared mapping).
    { group: { session: '01a23332-ffff-7000-8000-000000000001' }, calls: 1, tokens: tokens(500, 20, 100) },
  ]);
});

test("Codex: a sub-agent's own rollout is read and counted with its parent's session", async () => {
  const report = await accountUsage({ homes: [homeOf('codex/subagent')] }, { by: ['session', 'subagent'] });
  expect(report.rows.map(({ group, calls, tokens }) => ({ group, calls, tokens }))).toEqual([
    {
      group: { session: '01a23332-abf9-7491-87d9-256199b30f86', subagent: '(main)' },
      calls: 4,
      tokens: tokens(4800, 160),
    },
    {
      group: { session: '01a23332-abf9-7491-87d9-256199b30f86', subagent: 'Bernoulli' },
      calls: 2,
      tokens: tokens(10300, 60),
    },
  ]);
});

test.each([
  ['opencode', 'ses_db7a07e9bffeTffxZOZPsqt1IW', 'ses_db7a03792ffeQ3UoDWmQtr98fM', 3],
  ['kilo', 'ses_db79ff2e0ffejEbzs5b6U3aVFw', 'ses_db79f661cffei3F1rBxvqxOwJV', 5],
])(
  "%s: a fork's copies of its parent's calls (new ids, the same times) are counted once, in the parent",
  async (...[harness, parent, fork, copies]) => {
    // The live ground truth's store (its README): the parent's three calls and its subagent's two (a child
    // session, counted with the parent); the fork holds copies of the three, and Kilo's a copy of the subagent's
    // session too, a child of the fork.
    const home = fixturePath(`${harness}/usage/resume-fork/home`);
    const report = await accountUsage({ homes: [home], harness }, { by: ['session'] });
    expect(report.rows.map(({ group, calls, tokens }) => ({ group, calls, tokens }))).toEqual([
      { group: { session: fork }, calls: 1, tokens: tokens(1200, 33, 5100) },
      { group: { session: parent }, calls: 5, tokens: tokens(6900, 265, 9800) },
    ]);
    expect(report.duplicates).toBe(copies);
  },
);

test('the same home given twice counts every call once', async () => {
  const home = homeOf('claude-code/subagent', 'codex/read');
  const report = await accountUsage({ homes: [home, home] });
  expect(report.total.calls).toBe(4 + 5);
  expect(report.duplicates).toBe(4 + 5);
});
