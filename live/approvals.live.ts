/**
 * Approvals routed to the caller (`permissions: 'ask'`, docs/library.md "Approvals") on the real Claude Code, Qwen
 * Code and ACP agents with a scripted model: every case of live/approvals-cases.ts on every row it applies to.
 */
import { describe, expect, inject, test } from 'vitest';
import { runAsk } from './approvals.js';
import { cases } from './approvals-cases.js';
import { askRows } from './approvals-rows.js';
import { liveHarnesses } from './harnesses.js';

const rows = inject('liveRows');

for (const row of liveHarnesses.filter((r) => askRows[r.id] !== undefined)) {
  const cli = rows[row.id];
  const ask = askRows[row.id]!;
  if (!cli) continue;
  describe.concurrent(`approvals: ${row.id} (${cli.cli.pkg}@${cli.version})`, () => {
    for (const scripted of cases.filter((c) => c.when?.(ask) ?? true)) {
      test(scripted.name, async () => {
        await runAsk(row, ask, cli, scripted, async (run) => {
          const context = `${row.id} / ${scripted.name}:\n${run.records.map((r) => JSON.stringify(r)).join('\n')}`;
          expect(
            run.requests.filter((r) => r.outcome === 'unexpected'),
            context,
          ).toEqual([]);
          expect(run.leftovers, context).toEqual([]);
          try {
            await scripted.check(run, ask);
          } catch (error) {
            (error as Error).message += `\n${context}`;
            throw error;
          }
        });
      });
    }
  });
}
