/**
 * docs/contract.md "Run metrics": a per-turn slice and the session total never diverge. For every
 * real capture of a harness that reports turns, the `usage` events add up to the metrics'
 * tokens and cost; a harness that reports only a run total emits no `usage` events (README "Events").
 */
import { describe, expect, test } from 'vitest';
import { addTokens } from '../lib/kernel/metrics.js';
import type { Tokens } from '../lib/kernel/events.js';
import { fixtureFiles, runFixture } from './helpers.js';

/**
 * Which harnesses report per-turn usage, and the fixture folder of each. ACP agents report their
 * cost only as the session's running total (`usage_update`), which no usage event carries.
 */
const harnesses = [
  { harness: 'acp', folder: 'acp', perTurn: true, costPerTurn: false },
  { harness: 'codex', folder: 'codex', perTurn: true, costPerTurn: true },
  { harness: 'opencode', folder: 'opencode', perTurn: true, costPerTurn: true },
  { harness: 'pi', folder: 'pi', perTurn: true, costPerTurn: true },
  // One usage per model call (`assistant.usage`); 1.0.102 writes none in `-p` mode, so its captures have no tokens at
  // all.
  { harness: 'copilot', folder: 'copilot', perTurn: true, costPerTurn: true },
  { harness: 'kilo', folder: 'kilo', perTurn: true, costPerTurn: true },
  // One usage per model call, sub-agents' included (cline.md: run_result.usage is not used).
  { harness: 'cline', folder: 'cline', perTurn: true, costPerTurn: true },
  { harness: 'claude-code', folder: 'claude-code', perTurn: false, costPerTurn: false },
  { harness: 'goose', folder: 'goose', perTurn: false, costPerTurn: false },
  // Gemini's result.stats is the session total, and no record reports a turn's share (gemini.md).
  { harness: 'gemini', folder: 'gemini', perTurn: false, costPerTurn: false },
  // Only result.usage, the session total: assistant records' usage is zero on split records and subagents' (qwen.md).
  { harness: 'qwen', folder: 'qwen', perTurn: false, costPerTurn: false },
] as const;

for (const { harness, folder, perTurn, costPerTurn } of harnesses) {
  describe(`${harness}: usage events against the metrics`, () => {
    for (const file of fixtureFiles(folder)) {
      test(file, async () => {
        const { events, metrics } = await runFixture(file, { harness });
        const usage = events.filter((event) => event.type === 'usage');
        if (!perTurn) return expect(usage).toEqual([]);
        const sum: Tokens = {};
        let cost: number | undefined;
        for (const event of usage) {
          addTokens(sum, event.tokens);
          if (event.cost !== undefined) cost = (cost ?? 0) + event.cost;
        }
        expect(sum).toEqual(metrics.tokens);
        // Added in the same order, so the same float: the cost the events carry is the run's.
        expect(cost).toBe(costPerTurn ? metrics.cost : undefined);
      });
    }
  });
}
