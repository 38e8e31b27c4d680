/** lib/harnesses/acp/stopped.ts: what between a rejection and the turn's answer says the agent went on. */
import { describe, expect, test } from 'vitest';
import { refusalWatch } from '../../../lib/harnesses/acp/stopped.js';

const said = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const call = (toolCallId: string, status = 'pending') => ({ sessionUpdate: 'tool_call', toolCallId, status });

describe('refusalWatch', () => {
  test('a turn with no rejection was not stopped', () => {
    const watch = refusalWatch();
    watch.update(call('a'));
    expect(watch.stopped()).toBe(false);
  });

  test("a turn that ends after a rejection, with only the refused call's updates and empty chunks: stopped", () => {
    const watch = refusalWatch();
    watch.refused('a');
    watch.update({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'failed' });
    watch.update(call('a', 'failed'));
    watch.update(said(''));
    watch.update({ sessionUpdate: 'usage_update', used: 10 });
    expect(watch.stopped()).toBe(true);
  });

  test("the agent's own cancel notice, in chunks and with spaces, is no going on: stopped", () => {
    const watch = refusalWatch();
    watch.refused('a');
    watch.update(said(' Info: Operation '));
    watch.update(said('cancelled by user\n'));
    expect(watch.stopped()).toBe(true);
  });

  test('a new call, or words of the model after the rejection: it went on', () => {
    const watch = refusalWatch();
    watch.refused('a');
    watch.update(call('b'));
    expect(watch.stopped()).toBe(false);
    watch.refused('c');
    watch.update(said('Nothing was changed.'));
    expect(watch.stopped()).toBe(false);
    // A notice followed by more text is the model's words too, however long (the watch keeps no more than a notice).
    watch.refused('d');
    watch.update(said('Info: Operation cancelled by user'));
    watch.update(said(' and then I tried another way.'.repeat(1000)));
    expect(watch.stopped()).toBe(false);
  });

  test('the answer closes the turn: the next turn is watched afresh', () => {
    const watch = refusalWatch();
    watch.refused('a');
    expect(watch.stopped()).toBe(true);
    expect(watch.stopped()).toBe(false);
  });
});
