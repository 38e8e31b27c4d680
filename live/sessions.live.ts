/**
 * The agents' own session files, from the real CLIs: for each row whose harness's sessions are
 * read, one scenario is run; its session is followed from the first event on stdout that finds
 * the file under the run's HOME (a handshake, not a clock: most agents write the file as they
 * go, so the follower reads it while it grows), then read whole. The listing names exactly that
 * session, following gives the events reading gives, and the file's tool events are stdout's
 * (the paired-capture tests in test/runtime/sessions/ list the other differences per harness).
 */
import { describe, expect, inject, test } from 'vitest';
import type { HarnessEvent } from '../lib/kernel/events.js';
import { followSession } from '../lib/runtime/sessions/follow.js';
import { sessionFormats } from '../lib/runtime/registry.js';
import { findSessions, readSession, type SessionEntry } from '../lib/runtime/sessions/sessions.js';
import { liveHarnesses } from './harnesses.js';
import { runScenario } from './run.js';
import { scenarios } from './scenarios/index.js';
import type { Place } from './workspace.js';

const rows = inject('liveRows');

const TOOL_TYPES = new Set(['read', 'write', 'search', 'list', 'command', 'skill']);

/** A tool event as the comparison sees it: its type and what it names. */
function tool(event: HarnessEvent): string | undefined {
  if (!TOOL_TYPES.has(event.type)) return undefined;
  const e = event as unknown as Record<string, unknown>;
  return [event.type, e.path ?? e.command ?? e.query ?? e.name, e.is_success].join(' | ');
}

const tools = (events: readonly HarnessEvent[]) =>
  events
    .map(tool)
    .filter((line) => line !== undefined)
    .sort();

async function sessionsUnder(home: string, harness: string): Promise<SessionEntry[]> {
  const found: SessionEntry[] = [];
  for await (const entry of findSessions({ home, harness })) found.push(entry);
  return found;
}

/** Follows the session once its file is there; events and the lines handled as they come. */
function follower(harness: string) {
  const controller = new AbortController();
  const events: HarnessEvent[] = [];
  let lines = 0;
  let ended = false;
  let looking: Promise<void> | undefined;
  let again = false;
  let done: Promise<void> | undefined;
  let onLines = () => {};
  return {
    events,
    get started() {
      return done !== undefined;
    },
    /** Called on each event of the run: the first look that finds the session file starts following it. */
    look(place: Place) {
      if (done !== undefined) return;
      if (looking !== undefined) {
        again = true;
        return;
      }
      again = false;
      looking = sessionsUnder(place.home, harness).then(([entry]) => {
        looking = undefined;
        if (entry === undefined) return again ? this.look(place) : undefined;
        const follow = followSession({
          harness,
          path: entry.path,
          signal: controller.signal,
          endGraceMs: 200,
          pollMs: 200,
          onLine(line) {
            lines = line;
            onLines();
          },
        });
        done = (async () => {
          for await (const event of follow) events.push(event);
          ended = true;
          onLines();
        })();
      });
    },
    /** The look under way, if any, has ended. */
    settled: async () => {
      while (looking !== undefined) await looking;
    },
    /** Once `count` lines are handled: ends the following if the session's end marker has not, and waits for it. */
    async finish(count: number): Promise<void> {
      while (lines < count && !ended) await new Promise<void>((resolve) => (onLines = resolve));
      controller.abort();
      await done;
    },
  };
}

for (const row of liveHarnesses) {
  const cli = rows[row.id];
  // The scenario with the most kinds of tool call the row has.
  const scenario = ['file tools', 'shell reads', 'shell']
    .map((name) => scenarios[row.id]?.find((s) => s.name === name))
    .find((s) => s !== undefined);
  if (!cli || row.harness === 'acp' || !sessionFormats.has(row.harness) || scenario === undefined) continue;
  describe(`${row.id} (${cli.cli.pkg}@${cli.version}) session files`, () => {
    test(`${scenario.name}: listed, followed, read`, async () => {
      const follow = follower(row.harness);
      await runScenario(
        row,
        cli,
        scenario,
        async (run) => {
          const entries = await sessionsUnder(run.place.home, row.harness);
          expect(entries).toHaveLength(1);
          const [entry] = entries as [SessionEntry];
          const named = new Set(run.events.map((event) => event.session_id).filter((id) => id !== undefined));
          if (named.size > 0) expect([...named]).toEqual([entry.id]);
          expect(entry).toMatchObject({ harness: row.harness, cwd: run.place.workspace, live: true });

          const read = readSession({ harness: row.harness, path: entry.path });
          const events: HarnessEvent[] = [];
          for await (const event of read) events.push(event);
          expect(tools(events)).toEqual(tools(run.events));
          expect(tools(events)).not.toEqual([]);

          // Following it, from the event that first found the file (or from now: Copilot may write its file after its
          // last stdout line), gives what reading it gives.
          await follow.settled();
          if (!follow.started) follow.look(run.place);
          await follow.settled();
          expect(follow.started).toBe(true);
          await follow.finish(read.metrics.input.lines);
          expect(follow.events.map((event) => [event.type, tool(event)])).toEqual(
            events.map((event) => [event.type, tool(event)]),
          );
        },
        (_event, place) => follow.look(place),
      );
    });
  });
}
