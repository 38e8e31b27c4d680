/**
 * Claude Code's session transcripts, `~/.claude/projects/<project>/<sessionId>.jsonl` (subagents
 * in `<sessionId>/subagents/agent-<agentId>.jsonl`): the records of docs/harnesses/claude-code.md
 * "Session transcripts". `user` and `assistant` records are stdout's, read by the same dialect;
 * the rest is bookkeeping the CLI keeps for itself, and `cost-state` (the last line a process
 * writes) gives the session's cost.
 */
import { basename, dirname, join } from 'node:path';
import type { Correlator, Harness, RunContext } from '../../kernel/harness.js';
import { isObject, type JsonObject } from '../../kernel/json.js';
import { addTokens, amount } from '../../kernel/metrics.js';
import { recordRows, type RecordRule } from '../../kernel/record-table.js';
import { envDir, transcriptFacts, type SessionFormat, type SessionLocation } from '../../kernel/session.js';
import { agentFiles, filesIn, namesIn } from '../../files/session-dirs.js';
import { apiErrorText, readRecovery } from './correlate.js';
import { claudeTokens } from './tokens.js';
import { recordedDirectories } from './shell-directory.js';
import { bySubtype, dialect } from './dialect.js';
import { modelCalls } from './model-calls.js';
import { sessionAgents } from './session-agents.js';
import { tools } from './tools.js';

const consumed = (what: string) => ({ handling: `${what}: consumed`, rules: { consumed: `${what}: consumed` } });

/** docs/harnesses/claude-code.md "Session transcripts", one row per record `type`. */
const sessionRecords = recordRows({
  user: {
    handling:
      "as stdout's `user`, its `toolUseResult` read as stdout's `tool_use_result`; the prompt and injected text emit " +
      'nothing',
    rules: { blocks: 'user', text: 'user text: consumed', malformed: 'user, malformed: unknown' },
  },
  assistant: {
    handling:
      "as stdout's `assistant`, its tool calls run in the record's `cwd`; the final usage of each `message.id` " +
      "goes to the metrics once; the CLI's own API error reply (`isApiErrorMessage`) is an error, not agent text",
    rules: {
      blocks: 'assistant',
      apiError: 'assistant, API error reply: error (`message` its text, `code` its `error`, else `api_error`)',
      malformed: 'assistant, malformed: unknown',
    },
  },
  system: {
    handling:
      '`api_error` (a failed attempt before a retry) is a warning (code `api_error`); any other subtype is unknown',
    rules: { apiError: 'system/api_error: warning', other: 'system, other subtype: unknown' },
  },
  attachment: consumed('context added to the model request (environment, prompt snapshot, listings)'),
  'queue-operation': consumed('the prompt queued and taken'),
  'last-prompt': consumed('the latest prompt and leaf record'),
  'atis-latch': consumed('bookkeeping'),
  'tools-used': consumed('the tools the session used'),
  'api-request': consumed('one API request (parameters, blob hashes)'),
  'api-request-shape': consumed('system blocks and tool schemas, stored once'),
  'api-request-blob': consumed('a request message, stored once'),
  'cost-state': {
    handling: "the session totals a process writes last: `totalCostUSD` is the metrics' cost",
    rules: { cost: 'cost-state: consumed' },
  },
});

function sessionCorrelator(run: RunContext): Correlator {
  const agents = run.trace && sessionAgents(run.trace, run.limits);
  const stream = dialect(run, sessionRecords, {
    joinText: 'message',
    unpaired: readRecovery(run),
    // Each record says where its calls ran (docs/harnesses/claude-code.md "Shell directory").
    directories: recordedDirectories(run),
    agentOf: agents?.agentOf,
    begins: true,
    modelCalls: run.trace && agents && modelCalls(run.trace, run.limits, agents.known, true),
  });
  // One API message spans several records, each with the message's final usage: counted once.
  const counted = new Set<string>();
  const system = bySubtype(
    run,
    new Map<string, RecordRule>([['api_error', apiError]]),
    sessionRecords.system.rules.other,
  );

  function facts(record: JsonObject): void {
    run.reportSession(record.sessionId);
    run.reportCwd(record.cwd);
  }

  function apiError(record: JsonObject): string {
    const error = isObject(record.error) ? record.error : {};
    const text =
      typeof error.formatted === 'string'
        ? error.formatted
        : typeof error.message === 'string'
          ? error.message
          : 'API error';
    run.emit({ type: 'warning', code: 'api_error', message: `Claude Code API error, retrying: ${text}` });
    return sessionRecords.system.rules.apiError;
  }

  function assistant(record: JsonObject): string {
    facts(record);
    const message = isObject(record.message) ? record.message : undefined;
    if (message && typeof message.id === 'string' && isObject(message.usage) && !counted.has(message.id)) {
      counted.add(message.id);
      addTokens(run.metrics.tokens, claudeTokens(message.usage));
    }
    if (record.isApiErrorMessage !== true) return stream.assistant(record);
    const code = typeof record.error === 'string' && record.error !== '' ? record.error : 'api_error';
    run.emit({ type: 'error', code, message: apiErrorText(record) || 'Claude Code API error' });
    run.metrics.is_error = true;
    return sessionRecords.assistant.rules.apiError;
  }

  function costState(record: JsonObject): string {
    const cost = amount(record.totalCostUSD);
    if (cost !== undefined) run.metrics.cost = cost;
    return sessionRecords['cost-state'].rules.cost;
  }

  const consume = (type: keyof typeof sessionRecords) => () =>
    (sessionRecords[type].rules as { consumed: string }).consumed;

  return stream.correlator<typeof sessionRecords>({
    user: (record) => (facts(record), stream.user({ ...record, tool_use_result: record.toolUseResult })),
    assistant,
    system: (record) => (facts(record), system(record)),
    attachment: consume('attachment'),
    'queue-operation': consume('queue-operation'),
    'last-prompt': consume('last-prompt'),
    'atis-latch': consume('atis-latch'),
    'tools-used': consume('tools-used'),
    'api-request': consume('api-request'),
    'api-request-shape': consume('api-request-shape'),
    'api-request-blob': consume('api-request-blob'),
    'cost-state': costState,
  });
}

const sessionReader: Harness = {
  name: 'claude-code',
  correlator: sessionCorrelator,
  records: sessionRecords,
  tools,
};

const SESSION_FILE = /^[0-9a-f-]{36}\.jsonl$/;

async function locate(path: string): Promise<SessionLocation> {
  const id = basename(path, '.jsonl');
  return { id, path, subagents: await agentFiles(join(dirname(path), id, 'subagents')) };
}

export const session: SessionFormat = {
  harness: 'claude-code',
  where: '.claude/projects/<project>/<sessionId>.jsonl (subagents: <sessionId>/subagents/agent-<agentId>.jsonl)',
  reader: sessionReader,
  // `CLAUDE_CONFIG_DIR` moves every ~/.claude path (code.claude.com/docs/en/claude-directory).
  env: ['CLAUDE_CONFIG_DIR'],
  async *find(home, env) {
    const projects = join(envDir(env, 'CLAUDE_CONFIG_DIR') ?? join(home, '.claude'), 'projects');
    for (const project of await namesIn(projects, 'dir')) {
      for (const file of await filesIn(join(projects, project), SESSION_FILE)) yield await locate(file);
    }
  },
  locate,
  mergesSubagents: true,
  facts: transcriptFacts,
  endRules: new Set([sessionRecords['cost-state'].rules.cost]),
};
