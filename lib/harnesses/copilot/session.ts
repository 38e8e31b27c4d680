/**
 * Copilot CLI's session state, `~/.copilot/session-state/<sessionId>/events.jsonl`: the events
 * `--output-format json` prints, but for the ephemeral ones, plus the session's bookkeeping
 * (docs/harnesses/copilot.md "Session events"). The stdout correlator reads them; the one record
 * read differently is `session.usage_record`, a model call's token counts, which stdout never has.
 */
import { basename, dirname, join } from 'node:path';
import type { Correlator, Harness, RunContext } from '../../kernel/harness.js';
import { isObject } from '../../kernel/json.js';
import { recordRows } from '../../kernel/record-table.js';
import { envDir, type SessionFormat } from '../../kernel/session.js';
import { namesIn } from '../../files/session-dirs.js';
import { correlator as stdoutCorrelator, records } from './correlate.js';
import { consumedRecords } from './records.js';
import { tools } from './tools.js';

/** docs/harnesses/copilot.md "Session events": the stdout table's rows, and the records only the file has. */
const sessionRecords = recordRows({
  'session.usage_record': {
    handling: "one model call's usage (`data.usage`), read as stdout's `assistant.usage`: a usage event",
    rules: { usage: 'session.usage_record: usage' },
  },
  ...records,
  ...consumedRecords,
  'session.start': {
    handling:
      "the session's start: its working directory (`data.context.cwd`, which stdout never names) is the one relative " +
      'paths resolve against',
    rules: { cwd: 'session.start: working directory' },
  },
});

function sessionCorrelator(run: RunContext): Correlator {
  const stdout = stdoutCorrelator(run);
  return {
    record(value) {
      if (isObject(value) && value.type === 'session.start') {
        const data = isObject(value.data) ? value.data : {};
        run.reportCwd(isObject(data.context) ? data.context.cwd : undefined);
        // For the trace: the session's start is the run's.
        run.trace?.began(value.timestamp);
        return sessionRecords['session.start'].rules.cwd;
      }
      if (!isObject(value) || value.type !== 'session.usage_record') return stdout.record(value);
      const data = isObject(value.data) ? value.data : {};
      stdout.record({ ...value, type: 'assistant.usage', data: data.usage });
      return sessionRecords['session.usage_record'].rules.usage;
    },
    end: () => stdout.end(),
    flush: () => stdout.flush?.(),
  };
}

const sessionReader: Harness = {
  name: 'copilot',
  correlator: sessionCorrelator,
  records: sessionRecords,
  tools,
};

export const session: SessionFormat = {
  harness: 'copilot',
  where: '.copilot/session-state/<sessionId>/events.jsonl (subagents: in the same file)',
  reader: sessionReader,
  // `COPILOT_HOME` moves ~/.copilot (changelog 1.0.40; it replaces the deprecated --config-dir).
  env: ['COPILOT_HOME'],
  async *find(home, env) {
    const root = join(envDir(env, 'COPILOT_HOME') ?? join(home, '.copilot'), 'session-state');
    for (const id of await namesIn(root, 'dir')) {
      if ((await namesIn(join(root, id))).includes('events.jsonl'))
        yield { id, path: join(root, id, 'events.jsonl'), subagents: [] };
    }
  },
  locate: async (path) => ({ id: basename(dirname(path)), path, subagents: [] }),
  mergesSubagents: false,
  facts(record) {
    if (!isObject(record)) return {};
    const data = isObject(record.data) ? record.data : {};
    const context = record.type === 'session.start' && isObject(data.context) ? data.context : {};
    return {
      time: typeof record.timestamp === 'string' ? record.timestamp : undefined,
      cwd: typeof context.cwd === 'string' ? context.cwd : undefined,
      id: record.type === 'session.start' && typeof data.sessionId === 'string' ? data.sessionId : undefined,
    };
  },
  // Each process ends with session.shutdown; a --continue appends a session.resume after it.
  endRules: new Set([consumedRecords['session.shutdown'].rules.consumed]),
};
