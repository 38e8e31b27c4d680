/**
 * The library as an ACP client (acp.md "The client side"), against a real peer (peer.ts): aborting a run, and an
 * agent that exits mid-turn. Each test names the row of the page's tables it covers.
 */
import { describe, expect, test, vi } from 'vitest';
import { bodies } from '../../helpers.js';
import { freshDirEachTest, agent, collect, initialize, sessionNew } from './peer.js';

freshDirEachTest();

describe('abort', { timeout: 30_000 }, () => {
  test(
    "session/cancel, a permission asked after it answered cancelled, and the events go on to the agent's " +
      '`cancelled` answer',
    async () => {
      const controller = new AbortController();
      const { run, log, sent } = agent('cancel', { signal: controller.signal });
      const events = await collect(run, (event) => event.type === 'agent' && controller.abort());
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'Starting the slow build.' },
        { type: 'agent', message: 'after the cancel: {"outcome":{"outcome":"cancelled"}}' },
        { type: 'command', command: 'sleep 30 && echo built' },
        { type: 'warning', code: 'cancelled', message: 'ACP turn ended: cancelled' },
      ]);
      expect(sent().slice(3)).toEqual([
        { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'sess-1' } },
        { jsonrpc: '2.0', id: 300, result: { outcome: { outcome: 'cancelled' } } },
      ]);
      expect(log().at(-1)).toEqual({ end: true });
      // `cancelled` after the caller's abort: 130, whatever the agent exits with.
      await expect(run.done).rejects.toMatchObject({
        reason: 'aborted',
        isCanceled: true,
        exitCode: 130,
        metrics: { ended: true, is_error: true, exit_code: 130 },
      });
    },
  );

  test(
    'an agent that ignores session/cancel, its stdin closing and SIGTERM is killed after the graces: SIGTERM, ' +
      'then SIGKILL',
    async () => {
      const { run } = agent('deaf', { cancelGraceMs: 50, exitGraceMs: 50, killGraceMs: 50 });
      // What the client did, in order, seen where it does it (the agent's own log would need the agent to be
      // scheduled within the graces, which a loaded machine does not promise): its writes to the agent's stdin and
      // the signals to its group, both passed on unchanged.
      const steps: string[] = [];
      const stdin = run.child!.stdin!;
      const write = stdin.write.bind(stdin) as (chunk: string) => boolean;
      const end = stdin.end.bind(stdin) as () => void;
      stdin.write = ((chunk: string) => (steps.push(JSON.parse(chunk).method ?? 'answer'), write(chunk))) as never;
      stdin.end = (() => (steps.push('end'), end())) as never;
      const kill = vi.spyOn(process, 'kill');
      try {
        // From the stop on: the handshake and the prompt went before.
        const events = await collect(run, (event) => event.type === 'agent' && (steps.splice(0), run.stop()));
        expect(bodies(events)).toEqual([
          { type: 'agent', message: 'Starting the slow build.' },
          // The end of input: the call never finished.
          { type: 'command', command: 'sleep 30 && echo built' },
          {
            type: 'warning',
            code: 'incomplete',
            message: 'acp ended without its terminal record (session/prompt response): the run is incomplete',
          },
        ]);
        // No answer within the cancel grace: 130, and the client's own SIGKILL is not the run's signal.
        await expect(run.done).rejects.toMatchObject({ reason: 'aborted', isCanceled: true, exitCode: 130 });
        expect(run.metrics.signal).toBeUndefined();
        expect(run.child!.signalCode).toBe('SIGKILL');
        const group = -run.child!.pid!;
        for (const [pid, signal] of kill.mock.calls) if (pid === group && signal !== 0) steps.push(String(signal));
        expect(steps).toEqual(['session/cancel', 'end', 'SIGTERM', 'SIGKILL']);
      } finally {
        kill.mockRestore();
      }
    },
  );

  test(
    'an abort before the session exists (session/new unanswered): nothing to cancel, the agent is stopped at ' + 'once',
    async () => {
      const controller = new AbortController();
      const { run, log, sent } = agent('hang', { signal: controller.signal });
      const events = await collect(
        run,
        (event) => event.type === 'warning' && event.code === 'stderr' && controller.abort(),
      );
      expect(bodies(events)).toEqual([
        { type: 'warning', code: 'stderr', message: 'waiting for a session' },
        {
          type: 'warning',
          code: 'incomplete',
          message: 'acp ended without its terminal record (session/prompt response): the run is incomplete',
        },
      ]);
      expect(sent()).toEqual([initialize, sessionNew()]);
      expect(log().at(-1)).toEqual({ end: true });
      await expect(run.done).rejects.toMatchObject({ reason: 'aborted', isCanceled: true, exitCode: 130 });
    },
  );

  test('leaving the stream (break in for await) cancels the turn the same way, and the agent is gone', async () => {
    const { run, sent } = agent('cancel');
    for await (const event of run) if (event.type === 'agent') break;
    await expect(run.done).rejects.toMatchObject({ reason: 'aborted', isCanceled: true, exitCode: 130 });
    expect(sent()[3]).toEqual({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'sess-1' } });
    expect(run.child!.exitCode).toBe(0);
  });
});

test(
  'an agent that exits mid-turn ends the stream: the open call unfinished, its stderr, incomplete, its exit code',
  { timeout: 30_000 },
  async () => {
    const { run } = agent('crash');
    const events = bodies(await collect(run));
    expect(events.filter((event) => event.code !== 'stderr')).toEqual([
      { type: 'agent', message: 'Working.' },
      { type: 'command', command: 'make' },
      {
        type: 'warning',
        code: 'incomplete',
        message: 'acp ended without its terminal record (session/prompt response): the run is incomplete',
      },
      { type: 'error', code: 'exit_code', message: `${process.execPath} exited with code 3` },
    ]);
    expect(events).toContainEqual({ type: 'warning', code: 'stderr', message: 'agent crashed' });
    // The agent's own exit before any ending of the conversation's: its own code.
    await expect(run.done).rejects.toMatchObject({ reason: 'exit_code', exitCode: 3, metrics: { ended: false } });
  },
);
