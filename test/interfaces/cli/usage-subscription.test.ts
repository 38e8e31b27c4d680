/**
 * `usage --subscription <harness>` (docs/usage.md "Subscriptions"): the harness's calls are marked as made on a plan,
 * in JSON, the table and CSV; the others are not. Homes: the claude-code/bash and codex/read captures (both on
 * 2026-12-01), priced by hand in usage-captures.test.ts: Claude Code ~$0.01078, Codex ~$0.07515; Copilot's
 * resume capture has no price (`fake-model`, a reported 0).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { inProcess } from '../../cli.js';
import { homeOf, removeHomes } from '../../runtime/usage/homes.js';

afterEach(removeHomes);

const rows = (lines: string[]) =>
  lines.map((line) => JSON.parse(line)).map(({ group, calls, cost }) => ({ group, calls, cost }));
const estimated = { source: 'estimated', prices_date: '2026-09-22' };

describe('usage --subscription', () => {
  test('JSON: a row of the plan harness alone is marked; a row mixing both says the plan part of its usd', async () => {
    const home = homeOf('claude-code/bash', 'codex/read');
    const plan = ['--subscription', 'claude-code'];
    const byHarness = await inProcess(['usage', '--home', home, '--json', '--by', 'harness', ...plan]);
    expect(rows(byHarness.lines)).toEqual([
      {
        group: { harness: 'claude-code' },
        calls: 11,
        cost: { usd: 0.01078, ...estimated, subscription_usd: 0.01078, subscription: true },
      },
      { group: { harness: 'codex' }, calls: 5, cost: { usd: 0.07515, ...estimated } },
    ]);
    const byDay = await inProcess(['usage', '--home', home, '--json', '--by', 'day', '--tz', 'UTC', ...plan]);
    expect(rows(byDay.lines)).toEqual([
      { group: { day: '2026-12-01' }, calls: 16, cost: { usd: 0.08593, ...estimated, subscription_usd: 0.01078 } },
    ]);
    // Without the option, nothing is marked.
    const plain = await inProcess(['usage', '--home', home, '--json', '--by', 'day', '--tz', 'UTC']);
    expect(rows(plain.lines)).toEqual([
      { group: { day: '2026-12-01' }, calls: 16, cost: { usd: 0.08593, ...estimated } },
    ]);
  });

  test('a plan harness whose model has no price: marked, still unknown, never $0', async () => {
    const home = homeOf('copilot/resume');
    const { lines } = await inProcess([
      'usage',
      '--home',
      home,
      '--json',
      '--by',
      'harness',
      '--subscription',
      'copilot',
    ]);
    expect(rows(lines)).toEqual([
      { group: { harness: 'copilot' }, calls: 2, cost: { source: 'unknown', subscription: true } },
    ]);
  });

  test('the table and CSV show it; several harnesses with commas', async () => {
    const home = homeOf('claude-code/bash', 'codex/read');
    const table = await inProcess(['usage', '--home', home, '--by', 'harness', '--subscription', 'claude-code']);
    expect(table.lines[2]).toMatch(/^claude-code {5}11 .* ~\$0\.01 plan$/);
    expect(table.lines[3]).toMatch(/^codex .* ~\$0\.08$/);
    expect(table.lines[5]).toMatch(/^total .* ~\$0\.09 \(plan \$0\.01\)$/);
    expect(table.lines.at(-1)).toBe("plan: calls on a subscription, at the API's price (not paid per token)");
    const csv = await inProcess([
      'usage',
      '--home',
      home,
      '--by',
      'harness',
      '--csv',
      '--subscription',
      'codex,claude-code',
    ]);
    expect(csv.lines.map((line) => line.split(',').slice(0, 1).concat(line.split(',').slice(8, 13)))).toEqual([
      ['harness', 'cost_usd', 'cost_source', 'prices_date', 'unpriced', 'subscription_usd'],
      ['claude-code', '0.01078', 'estimated', '2026-09-22', '', '0.01078'],
      ['codex', '0.07515', 'estimated', '2026-09-22', '', '0.07515'],
    ]);
  });

  test('a name that is no harness is a usage error', async () => {
    const { code, errors } = await inProcess(['usage', '--subscription', 'claude']);
    expect({ code, errors }).toEqual({
      code: 2,
      errors: 'harness-events: --subscription takes harness names; got "claude"\n',
    });
  });
});
