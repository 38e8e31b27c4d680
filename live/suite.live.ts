/**
 * The live suite (`npm run test:live`): every scenario of live/scenarios/ run through the real
 * CLI against the scripted model, for each row of live/harnesses.ts whose CLI installed (the
 * vitest config installs them and says which it skips, and why).
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, inject, test } from 'vitest';
import { comparable, driftOf } from './drift.js';
import { liveHarnesses } from './harnesses.js';
import type { Installed } from './install.js';
import { leftProblems, pathProblems, sessionEvents } from './paths.js';
import { runScenario } from './run.js';
import type { EventBody } from '../lib/kernel/events.js';
import type { Expected } from './scenario.js';
import { scenarios } from './scenarios/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The rows that run, by id, with their installed CLI. */
    liveRows: Record<string, Installed>;
  }
}

const rows = inject('liveRows');

for (const row of liveHarnesses) {
  const cli = rows[row.id];
  if (!cli) continue;
  describe.concurrent(`${row.id} (${cli.cli.pkg}@${cli.version})`, () => {
    for (const scenario of scenarios[row.id] ?? []) {
      test(scenario.name, async ({ task }) => {
        await runScenario(row, cli, scenario, async (run) => {
          const events = comparable(run.events);
          const expected = scenario.events(expectedFor(run.place.workspace, run.serverUrl, cli));
          task.meta.live = { row: row.id, drift: driftOf(expected, events), leftovers: run.leftovers };
          const requests = run.requests.map(
            (r) => `${r.outcome} ${r.path} ${r.conversation ?? ''}#${r.turn ?? ''} ${r.reason ?? ''}`,
          );
          const context =
            `${row.id} / ${scenario.name}: the run's events ` +
            `were\n${events.map((e) => JSON.stringify(e)).join('\n')}\nrequests:\n${requests.join('\n')}`;
          expect(
            run.requests.filter((r) => r.outcome === 'unexpected'),
            context,
          ).toEqual([]);
          expect(
            run.requests
              .filter((r) => r.protocol !== row.protocol && r.outcome !== 'probe')
              .map((r) => `${r.protocol} ${r.path}`),
            context,
          ).toEqual([]);
          expect(run.turnsPlayed.every(Boolean), `${context}\nturns played: ${JSON.stringify(run.turnsPlayed)}`).toBe(
            true,
          );
          // An ACP run's exit code is its conversation's (acp.md "How the run ends"), however its agent then exits.
          expect(run.result.exitCode, context).toBe(scenario.exitCode);
          const others = scenario.orEvents?.(expectedFor(run.place.workspace, run.serverUrl, cli)) ?? [];
          const order = (list: EventBody[]) => (scenario.unordered ? sortedEvents(list) : list);
          if (!others.some((other) => isDeepStrictEqual(events, other)))
            expect(order(events), context).toEqual(order(expected));
          if (scenario.unchanged) expect(run.changed, `${context}\nthe workspace changed`).toEqual([]);
          if (scenario.tokens) expect(run.result.metrics.tokens).toEqual(scenario.tokens);
          const x = expectedFor(run.place.workspace, run.serverUrl, cli);
          const session = scenario.session && comparable(await sessionEvents(row.harness, run.place));
          const sessionLines = session?.map((e) => JSON.stringify(e)).join('\n');
          const sessionContext = `${context}\nthe session's events were\n${sessionLines}`;
          if (session) expect(session, sessionContext).toEqual(scenario.session!(x));
          if (scenario.leaves) {
            expect(leftProblems(scenario.leaves, run.place), context).toEqual([]);
            const checked = [...(scenario.stdoutPaths === false ? [] : events), ...(session ?? [])];
            expect(pathProblems(checked, run.place, run.changed), sessionContext).toEqual([]);
          }
        });
      });
    }
  });
}

/** Events as a multiset: sorted by their JSON. */
function sortedEvents(events: EventBody[]): EventBody[] {
  const keyed = events.map((event) => [JSON.stringify(event), event] as const);
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, event]) => event);
}

function expectedFor(workspace: string, url: string, cli: Installed): Expected {
  return {
    workspace,
    url,
    path: (relative) => `${workspace}/${relative}`,
    exited: (code) => ({ type: 'error', code: 'exit_code', message: `${cli.bin} exited with code ${code}` }),
  };
}

declare module 'vitest' {
  interface TaskMeta {
    live?: { row: string; drift?: ReturnType<typeof driftOf>; leftovers: string[] };
  }
}
