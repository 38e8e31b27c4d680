// A harness of your own: an agent "acme" that prints {"type":"say"}, {"type":"tool"} and
// {"type":"tool_done"} lines. Run it: npx tsx examples/custom-harness.ts
import { Readable } from 'node:stream';
import { normalize } from 'harness-events';
import { BoundedMap, read, recordRows, recordTable, shell, toolTable, type Harness } from 'harness-events/harness';

// The record table: one row per `type`, with the rules that handle it (each gets the id `<type>:<key>`).
const records = recordRows({
  say: { handling: 'agent message, with `text`', rules: { agent: 'say: agent' } },
  tool: { handling: 'the call is recorded until its tool_done', rules: { recorded: 'tool: recorded' } },
  tool_done: {
    handling: "the recorded call's events (the tool table)",
    rules: { classified: 'tool_done: tool table', unpaired: 'tool_done, no call: unknown' },
  },
});

interface Call {
  name: string;
  args: unknown;
}

export const acme: Harness = {
  name: 'acme',
  records,
  // The tool table: which event each tool is, read from its arguments.
  tools: toolTable({ read_file: read({ path: 'path' }), run: shell('cmd') }),
  correlator(run) {
    // Calls waiting for their result, bounded; one never answered is classified with no outcome.
    const calls = new BoundedMap<Call>(run.limits.maxPendingTools, (call) =>
      run.tool({ name: call.name, input: call.args, raw: call }),
    );
    return {
      record: recordTable<typeof records>(run, {
        say(record) {
          run.emit({ type: 'agent', message: String(record.text) });
          return records.say.rules.agent;
        },
        tool(record) {
          calls.set(String(record.id), { name: String(record.name), args: record.args });
          return records.tool.rules.recorded;
        },
        tool_done(record) {
          const call = calls.take(String(record.id));
          if (call === undefined) {
            run.emit({ type: 'unknown', raw: record });
            return records.tool_done.rules.unpaired;
          }
          run.tool({ name: call.name, input: call.args, is_success: record.ok === true, raw: record });
          return records.tool_done.rules.classified;
        },
      }),
      end: () => calls.evictAll(),
    };
  },
};

const output = [
  { type: 'say', text: 'Looking at the notes.' },
  { type: 'tool', id: '1', name: 'read_file', args: { path: 'notes.md' } },
  { type: 'tool_done', id: '1', ok: true },
  { type: 'tool', id: '2', name: 'run', args: { cmd: 'rg -n TODO src' } },
  { type: 'tool_done', id: '2', ok: true },
].map((line) => JSON.stringify(line) + '\n');

for await (const event of normalize(Readable.from(output), { harness: acme, cwd: '/work', strict: true })) {
  console.log(JSON.stringify({ ...event, timestamp: undefined }));
}
