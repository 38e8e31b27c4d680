/**
 * The CLI's help: `harness-events --help` (every command and option) and `<command> --help` (one command's usage, its
 * options and an example). Both are built from one table of options; the defaults they show are the library's
 * `DEFAULT_*` constants, so the help cannot drift from what a run does.
 */
import { harnesses } from '../../runtime/registry.js';
import { acpAgents } from '../../harnesses/acp/agents.js';
import { DEFAULT_MAX_LINE_BYTES, DEFAULT_STREAM_LINES_ABOVE } from '../../transforms/split-lines.js';
import {
  DEFAULT_MAX_PENDING_BYTES,
  DEFAULT_MAX_PENDING_TOOLS,
  DEFAULT_MAX_SPAN_BYTES,
} from '../../transforms/correlate.js';
import { DEFAULT_KILL_GRACE_MS } from '../../runtime/run/spawn-options.js';
import { DEFAULT_QUIET_MS } from '../../runtime/sessions/follow.js';
import { sessionFormats } from '../../runtime/registry.js';
import { DEFAULT_STREAM } from '../jetstream/subjects.js';
import { usageCommandHelp, usageOptionHelp } from './usage-help.js';
import { wrap } from './wrap.js';

/** Each option as the help shows it: the flag with its argument, then what it does (wrapped when shown). */
const options = {
  harness: ['--harness <name>', 'which harness produced the input (required)'],
  cwd: [
    '--cwd <dir>',
    "the run's working directory: relative paths in events resolve",
    'against it (default: what the harness reports, if anything);',
    'with run, also the directory the child runs in',
  ],
  env: [
    '--env <NAME=VALUE>',
    "normalize: a variable of the harness process's environment, for the",
    "rules that depend on it (HOME, Claude Code's",
    'CLAUDE_BASH_MAINTAIN_PROJECT_WORKING_DIR); repeatable',
  ],
  strict: [
    '--strict',
    'a schema violation ends the run with exit code 1, instead of a',
    'warning plus an unknown event',
  ],
  metrics: [
    '--metrics <file>',
    'write the run metrics (tokens, cost, turns, final output, line',
    'accounting) as JSON to <file> when the input ends (opened first:',
    'a path that cannot be written is a usage error)',
  ],
  'kill-grace-ms': [
    '--kill-grace-ms <n>',
    'run: how long the child may take to exit after SIGTERM before',
    `it gets SIGKILL (default ${DEFAULT_KILL_GRACE_MS})`,
  ],
  timeout: ['--timeout <ms>', 'run: stop the child after this long, as Ctrl-C does (exit 124)'],
  'max-cost': ['--max-cost <usd>', 'run: stop the child once its usage costs more (--model priced; exit 124)'],
  'max-tokens': ['--max-tokens <n>', 'run: stop the child once its usage passes this many tokens (exit 124)'],
  prices: ['--prices <file>', 'run, usage: a JSON file of model -> USD per million tokens by class (over the table)'],
  'max-line-bytes': [
    '--max-line-bytes <n>',
    `longest input line kept (default ${DEFAULT_MAX_LINE_BYTES}); longer lines become`,
    'line_too_long warnings',
  ],
  'max-pending-tools': [
    '--max-pending-tools <n>',
    `tool calls that may wait for their result (default ${DEFAULT_MAX_PENDING_TOOLS})`,
  ],
  'max-pending-bytes': [
    '--max-pending-bytes <n>',
    `bytes those calls may hold (default ${DEFAULT_MAX_PENDING_BYTES}); past either, the`,
    'oldest is emitted without its result',
  ],
  'max-span-bytes': ['--max-span-bytes <n>', `longest accumulated text span (default ${DEFAULT_MAX_SPAN_BYTES})`],
  'stream-lines-above': [
    '--stream-lines-above <n>',
    'lines longer than this are parsed as they arrive and keep at most',
    `this much of their content, with a truncated warning (default ${DEFAULT_STREAM_LINES_ABOVE})`,
  ],
  prompt: [
    '--prompt <text>',
    "run: the task; the harness's command line is built around it",
    '(acp: the prompt sent to the agent)',
  ],
  model: [
    '--model <id>',
    'run, with --prompt: the model to ask for (acp: selected with',
    'session/set_model before the prompt)',
  ],
  agent: [
    '--agent <name>',
    `acp: a known agent, started in ACP mode without flags (${[...acpAgents.keys()].join(', ')})`,
  ],
  permissions: [
    '--permissions <mode>',
    'run, with --prompt: what the agent may do without asking: default',
    '(nothing), read-only or plan (where the CLI has such a mode), bypass',
    '(every tool call approved; acp: its permission requests allowed)',
    'or ask (on a terminal: each request shown, answered y once, s for',
    'the session, n deny; Claude Code, Qwen Code, acp)',
  ],
  format: [
    '--format <format>',
    'normalize, run: jsonl (default), pretty (what view shows) or',
    'trace (the trace stream: ids, the subagent tree, times);',
    'report: html (default) or md; follow: jsonl (default), pretty',
    'or trace',
  ],
  color: [
    '--color',
    'pretty output in color even when standard output is not a',
    'terminal (default: color on a terminal, unless NO_COLOR is set)',
  ],
  output: ['-o, --output <file>', 'report: the file to write (default: standard output)'],
  shownFrom: [
    '--cwd <dir>',
    'view, report: the directory paths are shown relative to',
    '(default: the current directory)',
  ],
  readMetrics: ['--metrics <file>', 'report: reads the run metrics that normalize or run wrote'],
  session: [
    '--session <path>',
    "an agent's own session file (its path from sessions) read instead",
    'of FILE; needs --harness',
  ],
  publish: [
    '--publish nats://HOST:PORT',
    'also publish each event to NATS JetStream, and the run metrics as',
    'the run\'s final message (see README "Many machines")',
  ],
  otlp: [
    '--otlp <url>',
    'also export the run as OpenTelemetry GenAI spans, OTLP/HTTP JSON,',
    "to <url> (a collector's base URL or its /v1/traces); the",
    'OTEL_EXPORTER_OTLP_* variables set headers and timeout; otel: default',
    'where they say (see docs/otel.md)',
  ],
  from: ['--from nats://HOST:PORT', 'read the events stored in NATS JetStream (by --publish)'],
  stream: ['--stream <name>', `the JetStream stream (default ${DEFAULT_STREAM}, created if missing)`],
  run: [
    '--run <id>',
    "the run's id in the subjects (with --publish: default a new UUID,",
    'printed; view --from, replay: the run to read)',
  ],
  since: ['--since <time>', 'view, replay: stored events from this time on; usage: calls (2026-11-30T12:00:00Z)'],
  follow: ['--follow', 'go on with new stored events until Ctrl-C'],
  quiet: ['--quiet', 'with --publish: print no events'],
  home: ['--home <dir>', 'sessions, follow, usage: where the agents saved their sessions', '(default: yours)'],
  json: ['--json', 'sessions: one JSON object per session; usage: one JSON object per row (v: 1)'],
  ...usageOptionHelp,
  latest: ['--latest', 'follow: the session written last'],
  new: ['--new', 'follow: only what is written from now on, not the session from', 'its start'],
  help: ['-h, --help', 'this text'],
  version: ['-v, --version', 'the version of harness-events'],
} satisfies Record<string, [string, ...string[]]>;

type OptionName = keyof typeof options;

const sizes: OptionName[] = [
  'max-line-bytes',
  'max-pending-tools',
  'max-pending-bytes',
  'max-span-bytes',
  'stream-lines-above',
];
const publishing: OptionName[] = ['publish', 'stream', 'run', 'quiet'];
const budgets: OptionName[] = ['max-cost', 'max-tokens', 'prices'];

interface CommandHelp {
  /** How it is called, and what it does. */
  usage: string;
  options: OptionName[];
  /** Command lines that show it at work. */
  examples: string[];
  exitCodes: string;
}

/** What --session does, said once in the global help and in the help of each command that takes it. */
const sessionRead = `      Reads an agent's own session file (its path from sessions) instead of FILE: the
      same events as its stdout, but for the differences docs/harnesses/<name>.md lists.`;
const signalled = '128 + n after signal n (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT)';

/** Each command's own help, in the order the global help lists them. */
const commands = {
  normalize: {
    usage: `  harness-events normalize --harness <name> [options] [FILE]
      Reads a harness's raw JSONL output from FILE (or standard input, also as "-") and
      writes one normalized event per line (JSONL) to standard output.`,
    options: [
      'harness',
      'cwd',
      'env',
      'strict',
      'metrics',
      'format',
      'color',
      ...sizes,
      'session',
      ...publishing,
      'otlp',
    ],
    examples: [
      'harness-events normalize --harness claude-code run.jsonl > events.jsonl',
      'claude -p "fix the tests" --output-format stream-json --verbose | ' +
        'harness-events normalize --harness claude-code',
    ],
    exitCodes: `0 input read to its end, or its reader went away (| head -1); 1 schema violation
(--strict) or read error; 2 usage error (unknown harness, missing file, bad option,
unwritable --metrics); ${signalled},
after writing what was read.`,
  },
  run: {
    usage: `  harness-events run --harness <name> --prompt <text> [--model <id>] [options] [-- <args>...]
  harness-events run --harness <name> [options] -- <command> [args...]
      Runs the harness CLI and writes its normalized events as JSONL, live. With --prompt,
      the harness's own command line (non-interactive, approving what --permissions says:
      by default nothing; the README lists them), <args> going before the prompt; else the
      command given. Its stdout translated, its stderr lines as warnings, its ending (exit
      code, signal, a missing terminal record, a timeout) as events. Exits with the child's
      exit code (128 + n for signal n, 127 when the command cannot be started, 124 after
      --timeout). Ctrl-C (or SIGTERM, SIGHUP, SIGQUIT) stops
      the child and everything it started (SIGTERM, then SIGKILL after the grace period; a
      second Ctrl-C: SIGKILL at once), writes what it printed, exits 128 + n.
  harness-events run --harness acp --prompt <text> [--agent <name>] [options] [-- <command> [args...]]
      Runs an agent that speaks the Agent Client Protocol: starts it (a known agent's
      command line, or the command after --), sends the prompt, answers its permission
      requests (rejected unless --permissions bypass or ask), and ends when it answers the prompt
      (exit 0 for end_turn, 1 for any other stop reason); Ctrl-C cancels the turn (exit 130; a
      second one: SIGKILL at once).`,
    options: [
      'harness',
      'prompt',
      'model',
      'agent',
      'permissions',
      'cwd',
      'strict',
      'metrics',
      'format',
      'color',
      'kill-grace-ms',
      'timeout',
      ...budgets,
      ...sizes,
      ...publishing,
      'otlp',
    ],
    examples: [
      'harness-events run --harness gemini --prompt "fix the tests"',
      'harness-events run --harness codex --metrics metrics.json -- codex exec --json "fix the tests"',
      'harness-events run --harness acp --agent copilot --prompt "fix the tests"',
    ],
    exitCodes: `the child's exit code (128 + n after its signal n; acp: 0 for end_turn, else 1);
127 when it cannot be started; 124 after --timeout or a budget; 1 a schema violation (--strict);
2 usage error; ${signalled} sent to the CLI (docs/run-contract.md).`,
  },
  view: {
    usage: `  harness-events view [--cwd <dir>] [--color] [FILE]
  harness-events view --from nats://HOST:PORT [--run <id>] [--since <time>] [--follow] [--stream <name>]
      Shows normalized events (the JSONL of normalize or run, from FILE or standard input,
      or stored in NATS JetStream with --from) for a person: one line or a short block per
      event; on a terminal in color, wrapped to its width, with a live status line
      (elapsed, tokens, cost, files, failures). Given a trace (normalize --format trace),
      each event is drawn under its agent and each tool call ends with its duration.`,
    options: ['shownFrom', 'color', 'session', 'harness', 'from', 'run', 'since', 'follow', 'stream'],
    examples: [
      'harness-events run --harness opencode -- opencode run --format json "fix the tests" | harness-events view',
    ],
    exitCodes: `0 input read to its end, or its reader went away; 1 read error; 2 usage error;
${signalled}, after writing what was read.`,
  },
  report: {
    usage: `  harness-events report [options] [FILE] [-o <file>]
      Writes the report of one run: a self-contained HTML page (summary, timeline, files,
      commands, failures and warnings, every event), or a Markdown summary (--format md).
      FILE holds normalized events or a trace (normalize --format trace: the timeline then
      shows the subagent tree and each call's duration), or with --harness the harness's
      raw output.`,
    options: ['harness', 'output', 'format', 'shownFrom', 'readMetrics', 'strict', ...sizes, 'session'],
    examples: [
      'harness-events report events.jsonl --metrics metrics.json -o report.html',
      'harness-events report --harness claude-code capture.jsonl --format md',
    ],
    exitCodes: `0 report written; 1 schema violation (--strict), read error or a report that
could not be written; 2 usage error (the output is checked before the input is read).`,
  },
  sessions: {
    usage: `  harness-events sessions [--home <dir>] [--harness <name>] [--json]
      Lists the sessions the agents saved under the home directory (default: yours), one
      per line: harness, id, start, last activity, size, live or not, working directory,
      path (what --session takes), its further files (part) and subagents indented below
      it. --json: one JSON object per session. Read: ${[...sessionFormats.keys()].join(', ')}.`,
    options: ['home', 'harness', 'json'],
    examples: ['harness-events sessions --harness claude-code', 'harness-events sessions --home /mnt/backup/me --json'],
    exitCodes: '0 listed (even none); 2 usage error (a home that does not exist, unknown harness).',
  },
  usage: { ...usageCommandHelp, options: [...usageCommandHelp.options] },
  follow: {
    usage: `  harness-events follow --harness <name> --session <path> [--new] [--format pretty]
  harness-events follow --latest [--harness <name>] [--home <dir>] [--new] [--format pretty]
      Follows a session as the agent writes it (whoever started it): its events as JSONL
      (or as view shows them), from its start or, with --new, only what comes from now on;
      --latest takes the session written last. Ends at the session's end marker (see
      docs/sessions.md), after ${DEFAULT_QUIET_MS / 60_000} minutes with nothing written, when the file is deleted,
      or on Ctrl-C.`,
    options: ['harness', 'session', 'latest', 'home', 'new', 'format', 'otlp'],
    examples: [
      'harness-events follow --latest --harness claude-code --format pretty',
      'harness-events follow --harness codex --session ~/.codex/sessions/2026/12/01/rollout-X.jsonl',
    ],
    exitCodes: `0 the session ended; 2 usage error (no such session, not a file); ${signalled}.`,
  },
  replay: {
    usage: `  harness-events replay --from nats://HOST:PORT [--run ID] [options]
      Writes the events stored in NATS JetStream (by --publish) as JSONL, in order: one
      run's with --run, else every run's; --harness <name> keeps one harness's runs,
      --since <time> starts at a time, --follow goes on with new events until Ctrl-C,
      --metrics <file> writes the run's metrics.`,
    options: ['from', 'run', 'harness', 'since', 'follow', 'stream', 'metrics'],
    examples: ['harness-events replay --from nats://localhost:4222 --run 7f3c --metrics metrics.json > events.jsonl'],
    exitCodes: '0 at the end; 1 an error reading the stream (said on stderr); 2 usage error; 130 Ctrl-C.',
  },
  otel: {
    usage: `  harness-events otel [--otlp <url>] [FILE]
      Exports a saved trace stream (the trace records of a run, one JSON object per line,
      from FILE or standard input) as OpenTelemetry GenAI spans over OTLP/HTTP JSON: one
      trace per run. A line that is not a trace record is said on stderr and skipped.`,
    options: ['otlp'],
    examples: ['harness-events otel --otlp http://localhost:4318 trace.jsonl'],
    exitCodes: `0 exported; 1 spans the collector did not take, or a read error (said on stderr);
2 usage error.`,
  },
} satisfies Record<string, CommandHelp>;

type CommandName = keyof typeof commands;

/** Each option: its flag in a column of 26, what it does wrapped to the lines after it (up to 96 columns in all). */
function optionLines(names: OptionName[]): string {
  const indent = ' '.repeat(28);
  return names
    .map((name) => {
      const [flag, ...text] = options[name] as string[];
      const lines = wrap(text.join(' '), 96 - indent.length).map((line) => indent + line);
      const head = `  ${flag}`;
      if (head.length < indent.length) lines[0] = head.padEnd(indent.length) + lines[0]!.slice(indent.length);
      else lines.unshift(head);
      return lines.join('\n');
    })
    .join('\n');
}

/** `harness-events <command> --help`. */
export function commandHelp(name: CommandName): string {
  const command: CommandHelp = commands[name];
  const session =
    name === 'normalize' || name === 'view' || name === 'report'
      ? `\n  harness-events ${name} --harness <name> --session <path> [options]\n${sessionRead}`
      : '';
  return `Usage:
${command.usage}${session}

Options:
${optionLines([...command.options, 'help'])}

Example${command.examples.length > 1 ? 's' : ''}:
${command.examples.map((example) => `  ${example}`).join('\n')}

${wrap(`Exit codes: ${command.exitCodes.replace(/\n/g, ' ')}`, 96).join('\n')}`;
}

/** `harness-events --help`: every command's usage, then every option. */
export const usage = `Usage:
${Object.entries(commands)
  .map(([name, command]) =>
    name === 'report'
      ? `${command.usage}\n` +
        `  harness-events normalize|view|report --harness <name> --session <path> [options]\n${sessionRead}`
      : command.usage,
  )
  .join('\n')}

Harnesses: ${[...harnesses.keys()].join(', ')}, or auto (told from the stream's first records)

Options:
${optionLines(Object.keys(options) as OptionName[])}

Exit codes: 0 input read to its end, or its reader went away (| head -1); 1 schema
violation (--strict) or read error; 2 usage error (unknown harness, missing file, bad
option, unwritable --metrics);
${signalled}, after writing what was read;
run: the child's exit code, 127 when it cannot be started, 124 after --timeout (docs/run-contract.md).
Each command's own help: harness-events <command> --help`;

/** Writes a help text; a command asked for help exits 0. */
export function writeHelp(stdout: NodeJS.WritableStream, text: string): number {
  stdout.write(text + '\n');
  return 0;
}
