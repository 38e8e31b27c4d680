/**
 * One test per row of opencode.md's tables, on authored lines in OpenCode's real shapes
 * (docs/harnesses/opencode.md), for the rows no real capture covers and to pin each rule alone.
 */
import { describe, expect, test } from 'vitest';
import { patchedFiles } from '../../../lib/harnesses/opencode/patch-markers.js';
import { bodies, jsonl, run, untimed } from '../../helpers.js';
import { records } from '../../../lib/harnesses/opencode/correlate.js';
import { sharedRecords } from '../../../lib/kernel/record-table.js';

const harness = 'opencode';
const sessionID = 'ses_1';
const cwd = '/ws';

/** A record as `run.ts` writes it: type, timestamp, the root session id, then its payload. */
function record<P extends Record<string, unknown>>(type: string, payload?: P) {
  return { type, timestamp: 1796004713924, sessionID, ...payload } as {
    type: string;
    timestamp: number;
    sessionID: string;
  } & P;
}
function textRecord(type: 'text' | 'reasoning', text: unknown) {
  return record(type, {
    part: { id: `prt_${type}`, messageID: 'msg_1', sessionID, type, text, time: { start: 1, end: 2 } },
  });
}
function stepFinish(tokens: unknown, cost: unknown = 0) {
  return record('step_finish', {
    part: { id: 'prt_sf', reason: 'stop', messageID: 'msg_1', sessionID, type: 'step-finish', tokens, cost },
  });
}
/** A finished tool part; `state` overrides the completed state's fields. */
function toolPart(tool: string, input: unknown, state: Record<string, unknown> = {}, id = `prt_${tool}`) {
  return {
    type: 'tool',
    tool,
    callID: `call_${tool}`,
    state: {
      status: 'completed',
      input,
      output: '',
      title: '',
      metadata: { truncated: false },
      time: { start: 1, end: 2 },
      ...state,
    },
    id,
    sessionID,
    messageID: 'msg_1',
  };
}
function toolUse(tool: string, input: unknown, state: Record<string, unknown> = {}, id?: string) {
  return record('tool_use', { part: toolPart(tool, input, state, id) });
}

async function events(...records: unknown[]) {
  return bodies((await run(jsonl(...records), { harness, cwd })).events);
}

describe('raw event stream', () => {
  test(
    'the session id is the first non-empty sessionID, session_id or sessionId at the top level; events before ' +
      'it carry none',
    async () => {
      const { events, metrics } = await run(
        jsonl(
          { type: 'mystery' },
          { type: 'text', sessionID: '', sessionId: 'ses_camel', part: { text: 'first' } },
          { type: 'text', session_id: 'ses_snake', part: { text: 'second' } },
          { type: 'text', part: { sessionID: 'ses_part', text: 'third' } },
        ),
        { harness },
      );
      expect(untimed(events)).toEqual([
        { type: 'unknown', raw: { type: 'mystery' } },
        { type: 'agent', session_id: 'ses_camel', message: 'first' },
        { type: 'agent', session_id: 'ses_camel', message: 'second' },
        { type: 'agent', session_id: 'ses_camel', message: 'third' },
      ]);
      expect(metrics.session_id).toBe('ses_camel');
    },
  );

  test('session_id alone, when it is the first seen, is the session', async () => {
    const { events } = await run(
      jsonl({ type: 'text', session_id: 'ses_snake', sessionId: 'ses_camel', part: { text: 'hi' } }),
      { harness },
    );
    expect(untimed(events)).toEqual([{ type: 'agent', session_id: 'ses_snake', message: 'hi' }]);
  });

  test('step_start is consumed', async () => {
    const result = await run(
      jsonl(record('step_start', { part: { id: 'prt_ss', type: 'step-start', snapshot: 'abc' } })),
      { harness },
    );
    expect(result.events).toEqual([]);
    expect(result.rules).toEqual([records.step_start.rules.consumed]);
  });

  test(
    'step_finish is one usage event per step; its tokens ' + 'and cost add into the metrics; turns count the steps',
    async () => {
      const { events, metrics } = await run(
        jsonl(
          stepFinish({ total: 1340, input: 1000, output: 40, reasoning: 10, cache: { read: 250, write: 50 } }, 0.25),
          stepFinish({ total: 130, input: 100, output: 30, reasoning: 0, cache: { read: 0, write: 0 } }, 0.5),
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([
        {
          type: 'usage',
          tokens: { input: 1000, output: 40, reasoning: 10, cache_read: 250, cache_write: 50 },
          cost: 0.25,
        },
        { type: 'usage', tokens: { input: 100, output: 30, reasoning: 0, cache_read: 0, cache_write: 0 }, cost: 0.5 },
      ]);
      expect(metrics).toMatchObject({
        tokens: { input: 1100, output: 70, reasoning: 10, cache_read: 250, cache_write: 50 },
        cost: 0.75,
        turns: 2,
      });
    },
  );

  test(
    'step_finish: a class only when reported as a ' + 'count, total is not a class, cost only when a number',
    async () => {
      const { events, metrics } = await run(
        jsonl(stepFinish({ total: 50, input: 50, output: '7', cache: 'none' }, null), stepFinish({ output: 3 })),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'usage', tokens: { input: 50 } },
        { type: 'usage', tokens: { output: 3 }, cost: 0 },
      ]);
      expect(metrics).toMatchObject({ tokens: { input: 50, output: 3 }, cost: 0, turns: 2 });
    },
  );

  test('step_finish without a tokens object is unknown, verbatim, and still a turn', async () => {
    const bad = record('step_finish', { part: { id: 'prt_sf', type: 'step-finish', reason: 'stop', cost: 1 } });
    const { events, metrics, rules } = await run(jsonl(bad, record('step_finish')), { harness });
    expect(bodies(events)).toEqual([
      { type: 'unknown', raw: bad },
      { type: 'unknown', raw: record('step_finish') },
    ]);
    expect(rules).toEqual([records.step_finish.rules.noTokens, records.step_finish.rules.noTokens]);
    expect(metrics).toMatchObject({ tokens: {}, turns: 2 });
    expect(metrics.cost).toBeUndefined();
  });

  test(
    'reasoning is reasoning when it carries text, ' + 'consumed when empty (hidden reasoning), unknown without text',
    async () => {
      const { events, rules } = await run(
        jsonl(
          textRecord('reasoning', 'Let me think.'),
          textRecord('reasoning', ''),
          textRecord('reasoning', 42),
          record('reasoning'),
        ),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'reasoning', message: 'Let me think.' },
        { type: 'unknown', raw: textRecord('reasoning', 42) },
        { type: 'unknown', raw: record('reasoning') },
      ]);
      expect(rules).toEqual([
        records.reasoning.rules.event,
        records.reasoning.rules.empty,
        records.reasoning.rules.noText,
        records.reasoning.rules.noText,
      ]);
    },
  );

  test(
    'text is an agent message when it carries text (verbatim, whitespace kept), consumed when empty; the last ' +
      'is the final output',
    async () => {
      const { events, metrics } = await run(
        jsonl(textRecord('text', 'First.'), textRecord('text', '\n\nSecond.'), textRecord('text', '')),
        { harness },
      );
      expect(bodies(events)).toEqual([
        { type: 'agent', message: 'First.' },
        { type: 'agent', message: '\n\nSecond.' },
      ]);
      expect(metrics.final_output).toBe('\n\nSecond.');
    },
  );

  test('error: the message from error.data.message, code from error.name; the run is in error', async () => {
    const { events, metrics } = await run(
      jsonl(
        record('error', { error: { name: 'ProviderAuthError', data: { providerID: 'lab', message: 'No API key.' } } }),
      ),
      { harness },
    );
    expect(bodies(events)).toEqual([{ type: 'error', message: 'No API key.', code: 'ProviderAuthError' }]);
    expect(metrics.is_error).toBe(true);
  });

  test(
    'error: without data.message the name is the ' + 'message; without either, a description carrying what there is',
    async () => {
      expect(
        await events(
          record('error', { error: { name: 'MessageOutputLengthError', data: {} } }),
          record('error', { error: { data: { statusCode: 500 } } }),
          record('error', { error: 'Bad Gateway' }),
          record('error'),
        ),
      ).toEqual([
        { type: 'error', message: 'MessageOutputLengthError', code: 'MessageOutputLengthError' },
        { type: 'error', message: 'OpenCode reported an error: {"data":{"statusCode":500}}' },
        { type: 'error', message: 'Bad Gateway' },
        { type: 'error', message: 'OpenCode reported an error without details' },
      ]);
    },
  );

  test(
    'any other type (e.g. the unreleased `done`), and ' + 'JSON that is not a typed object, is unknown, verbatim',
    async () => {
      const done = record('done', { reason: 'idle', rejected: [] });
      const { events, rules } = await run(jsonl(done, [1, 2], '"text"', { type: 7 }, { type: '__proto__' }), {
        harness,
      });
      expect(bodies(events)).toEqual([
        { type: 'unknown', raw: done },
        { type: 'unknown', raw: [1, 2] },
        { type: 'unknown', raw: 'text' },
        { type: 'unknown', raw: { type: 7 } },
        { type: 'unknown', raw: { type: '__proto__' } },
      ]);
      expect(rules).toEqual([
        sharedRecords['any other type'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        sharedRecords['not a typed object'].rules.unknown,
        sharedRecords['any other type'].rules.unknown,
      ]);
    },
  );

  test(
    'a non-JSON line (a stderr warning merged into stdout) is a warning carrying the line, and the stream goes ' + 'on',
    async () => {
      const { events } = await run(
        jsonl(
          textRecord('text', 'a'),
          '! permission requested: external_directory (/etc/*); auto-rejecting',
          textRecord('text', 'b'),
        ),
        {
          harness,
        },
      );
      expect(untimed(events)).toEqual([
        { type: 'agent', session_id: sessionID, message: 'a' },
        {
          type: 'warning',
          session_id: sessionID,
          message: '! permission requested: external_directory (/etc/*); auto-rejecting',
          code: 'not_json',
        },
        { type: 'agent', session_id: sessionID, message: 'b' },
      ]);
    },
  );
});

describe('tool_use', () => {
  test(
    'status: completed, success, done, ok succeed; error, failed, failure, cancelled, canceled fail; anything ' +
      'else is unset',
    async () => {
      const statuses = [
        'completed',
        'success',
        'done',
        'ok',
        'error',
        'failed',
        'failure',
        'cancelled',
        'canceled',
        'running',
        'Completed',
        undefined,
        1,
      ];
      const records = statuses.map((status, i) => toolUse('read', { filePath: 'a.ts' }, { status }, `prt_${i}`));
      const read = (is_success?: boolean) => ({ type: 'read', path: '/ws/a.ts', is_success });
      expect(await events(...records)).toEqual([
        read(true),
        read(true),
        read(true),
        read(true),
        read(false),
        read(false),
        read(false),
        read(false),
        read(false),
        { type: 'read', path: '/ws/a.ts' },
        { type: 'read', path: '/ws/a.ts' },
        { type: 'read', path: '/ws/a.ts' },
        { type: 'read', path: '/ws/a.ts' },
      ]);
    },
  );

  test('tool names match case-insensitively', async () => {
    expect(await events(toolUse('Read', { filePath: 'a.ts' }), toolUse('GLOB', { pattern: '*.ts' }))).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'search', query: '*.ts', is_success: true },
    ]);
  });

  test(
    'the same tool part printed again after compaction ' + 'is consumed; a part without an id is never deduplicated',
    async () => {
      const first = toolUse('read', { filePath: 'a.ts' });
      const compacted = toolUse('read', { filePath: 'a.ts' }, { time: { start: 1, end: 2, compacted: 3 } });
      const anonymous = { ...toolPart('read', { filePath: 'b.ts' }), id: undefined };
      const { events, rules } = await run(
        jsonl(first, compacted, record('tool_use', { part: anonymous }), record('tool_use', { part: anonymous })),
        { harness, cwd },
      );
      expect(bodies(events)).toEqual([
        { type: 'read', path: '/ws/a.ts', is_success: true },
        { type: 'read', path: '/ws/b.ts', is_success: true },
        { type: 'read', path: '/ws/b.ts', is_success: true },
      ]);
      expect(rules).toEqual([
        records.tool_use.rules.tool,
        records.tool_use.rules.repeated,
        records.tool_use.rules.tool,
        records.tool_use.rules.tool,
      ]);
    },
  );

  test('the seen part ids are bounded by maxPendingTools: the oldest is forgotten', async () => {
    const a = toolUse('read', { filePath: 'a.ts' }, {}, 'prt_a');
    const b = toolUse('read', { filePath: 'b.ts' }, {}, 'prt_b');
    const { events } = await run(jsonl(a, b, b, a), { harness, cwd, maxPendingTools: 1 });
    expect(bodies(events)).toEqual([
      { type: 'read', path: '/ws/a.ts', is_success: true },
      { type: 'read', path: '/ws/b.ts', is_success: true },
      { type: 'read', path: '/ws/a.ts', is_success: true },
    ]);
  });

  test('a tool_use without a tool name or a state object is unknown, verbatim', async () => {
    const noName = record('tool_use', { part: { ...toolPart('read', {}), tool: '' } });
    const noState = record('tool_use', { part: { ...toolPart('read', {}), state: 'completed' } });
    const noPart = record('tool_use');
    expect(await events(noName, noState, noPart)).toEqual([
      { type: 'unknown', raw: noName },
      { type: 'unknown', raw: noState },
      { type: 'unknown', raw: noPart },
    ]);
  });
});

describe('tool mapping', () => {
  test('read: filePath resolved against the cwd; offset is the first line and limit the count', async () => {
    expect(
      await events(
        toolUse('read', { filePath: '/abs/README.md' }, {}, 'prt_1'),
        toolUse('read', { filePath: './notes.txt', offset: 2, limit: 2 }, {}, 'prt_2'),
        toolUse('read', { filePath: 'notes.txt', offset: 5 }, {}, 'prt_3'),
        toolUse('read', { filePath: 'notes.txt', limit: 10 }, {}, 'prt_4'),
        toolUse(
          'read',
          { filePath: 'missing.txt' },
          { status: 'error', error: 'File not found', metadata: undefined },
          'prt_5',
        ),
      ),
    ).toEqual([
      { type: 'read', path: '/abs/README.md', is_success: true },
      { type: 'read', path: '/ws/notes.txt', start_line: 2, end_line: 3, is_success: true },
      { type: 'read', path: '/ws/notes.txt', start_line: 5, is_success: true },
      { type: 'read', path: '/ws/notes.txt', start_line: 1, end_line: 10, is_success: true },
      { type: 'read', path: '/ws/missing.txt', is_success: false },
    ]);
  });

  test('write and edit are writes of filePath', async () => {
    expect(
      await events(
        toolUse('write', { filePath: 'src/c.ts', content: 'x' }),
        toolUse(
          'edit',
          { filePath: '/ws/README.md', oldString: 'a', newString: 'b' },
          { status: 'error', error: 'oldString not found' },
        ),
      ),
    ).toEqual([
      { type: 'write', path: '/ws/src/c.ts', is_success: true },
      { type: 'write', path: '/ws/README.md', is_success: false },
    ]);
  });

  test(
    'apply_patch: one write per Add, Update, Delete and ' + "Move to marker, in order, each with the call's success",
    async () => {
      const patchText = [
        '*** Begin Patch',
        '*** Add File: src/new.ts',
        '+export {};',
        '*** Update File: src/old.ts',
        '*** Move to: src/moved.ts',
        '@@',
        '-a',
        '+b',
        '*** Delete File: /abs/gone.ts',
        '*** End Patch',
      ].join('\n');
      expect(
        await events(
          toolUse('apply_patch', { patchText }),
          toolUse('apply_patch', { patchText }, { status: 'failed' }, 'prt_2'),
        ),
      ).toEqual([
        { type: 'write', path: '/ws/src/new.ts', is_success: true },
        { type: 'write', path: '/ws/src/old.ts', is_success: true },
        { type: 'write', path: '/ws/src/moved.ts', is_success: true },
        { type: 'write', path: '/abs/gone.ts', is_success: true },
        { type: 'write', path: '/ws/src/new.ts', is_success: false },
        { type: 'write', path: '/ws/src/old.ts', is_success: false },
        { type: 'write', path: '/ws/src/moved.ts', is_success: false },
        { type: 'write', path: '/abs/gone.ts', is_success: false },
      ]);
    },
  );

  test('apply_patch naming no file, or without patchText, is unknown carrying the part', async () => {
    const empty = toolUse('apply_patch', { patchText: '*** Begin Patch\n*** End Patch' });
    const missing = toolUse('apply_patch', { patch: '*** Add File: a' }, {}, 'prt_2');
    expect(await events(empty, missing)).toEqual([
      { type: 'unknown', raw: empty.part },
      { type: 'unknown', raw: missing.part },
    ]);
  });

  test('patch markers: only at the start of a line, CRLF line ends, empty paths skipped', () => {
    const patch =
      '*** Begin Patch\r\n*** Update File: a b.ts\r\n@@\r\n **** Add File: not-a-marker\r\n+*** Add File: ' +
      'also-not\r\n*** Add File:   \r\n*** Delete File:c.ts\r\n*** End Patch';
    expect(patchedFiles(patch)).toEqual(['a b.ts', 'c.ts']);
  });

  test('grep and glob are searches: pattern is the query, path the scope', async () => {
    expect(
      await events(
        toolUse('grep', { pattern: 'greet', include: '*.ts' }),
        toolUse('glob', { pattern: '*.md', path: 'docs' }),
        toolUse('grep', { include: '*.ts' }, {}, 'prt_3'),
      ),
    ).toEqual([
      { type: 'search', query: 'greet', is_success: true },
      { type: 'search', query: '*.md', path: '/ws/docs', is_success: true },
      { type: 'unknown', raw: toolPart('grep', { include: '*.ts' }, {}, 'prt_3') },
    ]);
  });

  test(
    'bash is a command with metadata.exit as its exit code; a non-zero exit fails a completed call; workdir ' +
      'resolved',
    async () => {
      expect(
        await events(
          toolUse(
            'bash',
            { command: 'make test', workdir: 'pkg' },
            { metadata: { output: '', exit: 2, truncated: false } },
            'prt_1',
          ),
          toolUse('bash', { command: 'make', description: 'Build' }, { metadata: { output: '', exit: 0 } }, 'prt_2'),
          toolUse(
            'bash',
            { command: 'sleep 100' },
            { status: 'error', error: 'Tool execution aborted', metadata: undefined },
            'prt_3',
          ),
          toolUse('bash', { command: 'make' }, { metadata: { exit: 1.5 } }, 'prt_4'),
          toolUse('bash', { description: 'no command' }, {}, 'prt_5'),
        ),
      ).toEqual([
        { type: 'command', command: 'make test', working_directory: '/ws/pkg', exit_code: 2, is_success: false },
        { type: 'command', command: 'make', working_directory: '/ws', exit_code: 0, is_success: true },
        { type: 'command', command: 'sleep 100', working_directory: '/ws', is_success: false },
        { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
        { type: 'unknown', raw: toolPart('bash', { description: 'no command' }, {}, 'prt_5') },
      ]);
    },
  );

  test(
    "bash that is recognizably a file operation is that operation: the command's success (a non-zero exit fails " +
      'it), no exit code, paths under workdir',
    async () => {
      expect(
        await events(
          toolUse('bash', { command: 'cat README.md' }, { metadata: { exit: 0 } }, 'prt_1'),
          toolUse('bash', { command: 'cat a.ts', workdir: 'pkg' }, { metadata: { exit: 0 } }, 'prt_2'),
          toolUse('bash', { command: 'grep -rn todo src' }, { metadata: { exit: 2 } }, 'prt_3'),
        ),
      ).toEqual([
        { type: 'read', path: '/ws/README.md', is_success: true },
        { type: 'read', path: '/ws/pkg/a.ts', is_success: true },
        { type: 'search', query: 'todo', path: '/ws/src', is_success: false },
      ]);
    },
  );

  test(
    'bash: a search ending the command that exited 1 (state.metadata.exit) matched nothing and completed; 2 is ' +
      "a failure; a pipe or a mixed script only where the exit code is the search's",
    async () => {
      expect(
        await events(
          toolUse('bash', { command: 'grep -rn zzz src' }, { status: 'completed', metadata: { exit: 1 } }, 'prt_1'),
          toolUse('bash', { command: 'git grep zzz' }, { status: 'completed', metadata: { exit: 1 } }, 'prt_2'),
          toolUse('bash', { command: 'grep -rn zzz src' }, { status: 'completed', metadata: { exit: 2 } }, 'prt_3'),
          toolUse('bash', { command: 'rg zzz | head -n 2' }, { status: 'completed', metadata: { exit: 1 } }, 'prt_4'),
          toolUse('bash', { command: 'cat a.ts; rg zzz' }, { status: 'completed', metadata: { exit: 1 } }, 'prt_5'),
        ),
      ).toEqual([
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: true },
        { type: 'search', query: 'zzz', is_success: true },
        { type: 'search', query: 'zzz', path: '/ws/src', is_success: false },
        { type: 'search', query: 'zzz', is_success: false },
        { type: 'read', path: '/ws/a.ts', is_success: false },
        { type: 'search', query: 'zzz', is_success: true },
      ]);
    },
  );

  // OpenCode 1.18.33's bash tool: the output, then a <shell_metadata> block with its notes; exit null at a timeout.
  const timedOut = (ms: number) =>
    `Compiling...\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout ${ms} ms. If this ` +
    'command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value ' +
    'in milliseconds.\n</shell_metadata>';

  test(
    'bash (docs/contract.md "OpenCode"): exit null is no exit code, success from the status; a command the ' +
      'shell tool terminated at its timeout failed, no exit code, its file operations too',
    async () => {
      expect(
        await events(
          toolUse('bash', { command: 'make' }, { metadata: { output: '', exit: null } }, 'prt_1'),
          toolUse('bash', { command: 'make' }, { status: 'error', metadata: { exit: null } }, 'prt_2'),
          toolUse(
            'bash',
            { command: 'make', timeout: 2000 },
            { output: timedOut(2000), metadata: { exit: null } },
            'prt_3',
          ),
          toolUse('bash', { command: 'cat big.log' }, { output: timedOut(500), metadata: { exit: null } }, 'prt_4'),
          // The words alone, outside the block the tool appends, are the command's own output.
          toolUse(
            'bash',
            { command: 'echo shell tool terminated command after exceeding timeout 1 ms' },
            { output: 'shell tool terminated command after exceeding timeout 1 ms\n', metadata: { exit: 0 } },
            'prt_5',
          ),
        ),
      ).toEqual([
        { type: 'command', command: 'make', working_directory: '/ws', is_success: true },
        { type: 'command', command: 'make', working_directory: '/ws', is_success: false },
        { type: 'command', command: 'make', working_directory: '/ws', is_success: false },
        { type: 'read', path: '/ws/big.log', is_success: false },
        {
          type: 'command',
          command: 'echo shell tool terminated command after exceeding timeout 1 ms',
          working_directory: '/ws',
          exit_code: 0,
          is_success: true,
        },
      ]);
    },
  );

  test('background_process is a command when its input carries a command line, otherwise consumed', async () => {
    const { events, rules } = await run(
      jsonl(
        toolUse('background_process', { command: 'npm run dev', workdir: 'web' }, {}, 'prt_1'),
        toolUse('background_process', { command: 'cat README.md' }, {}, 'prt_2'),
        toolUse('background_process', { action: 'list' }, {}, 'prt_3'),
      ),
      { harness, cwd },
    );
    expect(bodies(events)).toEqual([
      { type: 'command', command: 'npm run dev', working_directory: '/ws/web', is_success: true },
      { type: 'command', command: 'cat README.md', is_success: true },
    ]);
    expect(rules).toEqual([records.tool_use.rules.tool, records.tool_use.rules.tool, records.tool_use.rules.tool]);
  });

  test(
    'task: the child session id identifies the ' + 'subagent; completed, failed, or started when backgrounded',
    async () => {
      const input = { description: 'Find greet', prompt: 'find it', subagent_type: 'explore' };
      expect(
        await events(
          toolUse('task', input, { metadata: { parentSessionId: sessionID, sessionId: 'ses_child1' } }, 'prt_1'),
          toolUse('task', input, { status: 'error', error: 'boom', metadata: { sessionId: 'ses_child2' } }, 'prt_2'),
          toolUse('task', input, { metadata: { sessionId: 'ses_child3', background: true, jobId: 'job_1' } }, 'prt_3'),
          toolUse('task', { prompt: 'no type' }, { metadata: { sessionId: 'ses_child4' } }, 'prt_4'),
          toolUse('task', input, { status: 'running', metadata: { sessionId: 'ses_child5' } }, 'prt_5'),
        ),
      ).toEqual([
        {
          type: 'orchestration',
          action: 'subagent_completed',
          subagent_id: 'ses_child1',
          subagent_name: 'explore',
          is_success: true,
        },
        {
          type: 'orchestration',
          action: 'subagent_failed',
          subagent_id: 'ses_child2',
          subagent_name: 'explore',
          is_success: false,
        },
        {
          type: 'orchestration',
          action: 'subagent_started',
          subagent_id: 'ses_child3',
          subagent_name: 'explore',
          is_success: true,
        },
        { type: 'orchestration', action: 'subagent_completed', subagent_id: 'ses_child4', is_success: true },
        { type: 'orchestration', action: 'subagent_completed', subagent_id: 'ses_child5', subagent_name: 'explore' },
      ]);
    },
  );

  test('task without the child session id is unknown (the agent type alone does not identify it)', async () => {
    const noChild = toolUse(
      'task',
      { subagent_type: 'explore' },
      { status: 'error', error: 'denied', metadata: undefined },
    );
    expect(await events(noChild)).toEqual([{ type: 'unknown', raw: noChild.part }]);
  });

  test('agent_manager is orchestration on the same terms as task', async () => {
    const anonymous = toolUse('agent_manager', { action: 'list' }, {}, 'prt_2');
    expect(
      await events(
        toolUse('agent_manager', { subagent_type: 'oracle' }, { metadata: { sessionId: 'ses_child' } }, 'prt_1'),
        anonymous,
      ),
    ).toEqual([
      {
        type: 'orchestration',
        action: 'subagent_completed',
        subagent_id: 'ses_child',
        subagent_name: 'oracle',
        is_success: true,
      },
      { type: 'unknown', raw: anonymous.part },
    ]);
  });

  test(
    'skill: the SKILL.md in metadata.dir; without dir, skills/<name>/SKILL.md under the cwd; with neither name ' +
      'nor dir, unknown',
    async () => {
      const nameless = toolUse('skill', {}, {}, 'prt_3');
      expect(
        await events(
          toolUse(
            'skill',
            { name: 'release-notes' },
            { metadata: { name: 'release-notes', dir: '/ws/.opencode/skills/release-notes' } },
            'prt_1',
          ),
          toolUse('skill', { name: 'missing' }, { status: 'error', error: 'not found', metadata: undefined }, 'prt_2'),
          nameless,
        ),
      ).toEqual([
        {
          type: 'skill',
          path: '/ws/.opencode/skills/release-notes/SKILL.md',
          skill_name: 'release-notes',
          is_success: true,
        },
        { type: 'skill', path: '/ws/skills/missing/SKILL.md', skill_name: 'missing', is_success: false },
        { type: 'unknown', raw: nameless.part },
      ]);
    },
  );

  test('lsp is a search when it carries a query or a symbol (path from filePath), otherwise unknown', async () => {
    const byPosition = toolUse('lsp', { operation: 'hover', filePath: 'src/a.ts', line: 1, character: 5 }, {}, 'prt_3');
    expect(
      await events(
        toolUse(
          'lsp',
          { operation: 'workspaceSymbol', query: 'greet', filePath: 'src/a.ts', line: 1, character: 1 },
          {},
          'prt_1',
        ),
        toolUse('lsp', { operation: 'findReferences', symbol: 'greet' }, {}, 'prt_2'),
        byPosition,
      ),
    ).toEqual([
      { type: 'search', query: 'greet', path: '/ws/src/a.ts', is_success: true },
      { type: 'search', query: 'greet', is_success: true },
      { type: 'unknown', raw: byPosition.part },
    ]);
  });

  test("todo, todowrite and todoread are consumed: the agent's internal task list", async () => {
    const todos = [{ content: 'Read', status: 'pending', priority: 'high' }];
    const { events, rules } = await run(
      jsonl(
        toolUse('todo', { todos }, {}, 'prt_1'),
        toolUse('todowrite', { todos }, {}, 'prt_2'),
        toolUse('todoread', {}, {}, 'prt_3'),
      ),
      { harness, cwd },
    );
    expect(events).toEqual([]);
    expect(rules).toEqual([records.tool_use.rules.tool, records.tool_use.rules.tool, records.tool_use.rules.tool]);
  });

  test(
    'any other tool (invalid, webfetch, an MCP tool, a name like constructor) is unknown carrying the part ' +
      'verbatim',
    async () => {
      const tools = [
        toolUse('invalid', { tool: 'frobnicate', error: 'Model tried to call unavailable tool' }, {}, 'prt_1'),
        toolUse('webfetch', { url: 'https://example.com', format: 'markdown' }, {}, 'prt_2'),
        toolUse('github_search_issues', { query: 'bug' }, {}, 'prt_3'),
        toolUse('constructor', {}, {}, 'prt_4'),
        toolUse('__proto__', {}, {}, 'prt_5'),
      ];
      expect(await events(...tools)).toEqual(tools.map((tool) => ({ type: 'unknown', raw: tool.part })));
    },
  );
});
