/**
 * The run report as a Markdown summary for a pull-request comment (GitHub-flavored): the
 * figures, then files, commands and problems, each table cut at `ROWS` rows so the comment
 * stays readable (the HTML report has everything).
 */
import { tokenClasses } from '../summary.js';
import { count, duration, money, plural, shortPath } from '../view/format.js';
import type { TraceAgent } from '../trace-tree.js';
import { ending } from './tree.js';
import type { Report } from './model.js';
import { eventText } from './text.js';
import { LINE_BREAKS, showInvisible } from '../view/invisible.js';

const ROWS = 30;
/** A command longer than this is cut in the table. */
const COMMAND_CHARS = 120;
/** A failure or warning longer than this is cut in the list (25 warnings of 7.5 MB each passed V8's string limit). */
const PROBLEM_CHARS = 2000;

/** The report as Markdown (a pull request comment, a CI summary): every text from the run is inert. */
export function reportMarkdown(report: Report): string {
  const { summary } = report;
  const tokens = tokenClasses
    .filter(([name]) => summary.tokens[name] !== undefined)
    .map(([name, label]) => `${count(summary.tokens[name]!)} ${label}`);
  if (summary.total_tokens !== undefined) tokens.push(`${count(summary.total_tokens)} total`);
  const types = Object.entries(summary.types).map(([type, n]) => `${count(n)} ${type}`);
  const figures: [string, string | undefined][] = [
    ['Outcome', summary.outcome],
    ['Harness', summary.harness && text(summary.harness)],
    ['Session', summary.session_id && code(summary.session_id)],
    [
      'Duration',
      `${duration(summary.duration_ms)}${summary.duration_from === 'harness' ? '' : ' (first to last event)'}`,
    ],
    ['Exit', summary.exit && text(summary.exit)],
    ['Tokens', tokens.length > 0 ? tokens.join(' · ') : undefined],
    ['Cost', summary.cost === undefined ? undefined : money(summary.cost)],
    ['Turns', summary.turns === undefined ? undefined : count(summary.turns)],
    ['Events', `${count(summary.events)}${types.length > 0 ? ` (${types.join(', ')})` : ''}`],
  ];
  const lines = [
    `### Run report${summary.harness ? `: ${text(summary.harness)}` : ''}`,
    '',
    '| | |',
    '|---|---|',
    ...figures.filter(([, value]) => value !== undefined).map(([name, value]) => `| ${name} | ${value} |`),
    '',
    `#### Files: ${count(summary.files_read)} read, ${count(summary.files_written)} written`,
    '',
    ...table(
      ['File', 'Reads', 'Writes', 'Failed'],
      report.files.map((file) => [
        code(shortPath(file.path, report.cwd)),
        String(file.reads),
        String(file.writes),
        String(file.failed),
      ]),
    ),
    `#### Commands: ${count(summary.commands)} run, ${count(summary.commands_failed)} failed`,
    '',
    ...table(
      ['Command', 'Exit'],
      report.commands.map((command) => [
        code(cutText(command.command.replace(/\s*\n\s*/g, ' ⏎ '), COMMAND_CHARS)),
        command.exit_code === undefined
          ? command.failed
            ? 'failed'
            : '—'
          : `${command.failed ? '**' : ''}${command.exit_code}${command.failed ? '**' : ''}`,
      ]),
    ),
    ...treeLines(report),
    `#### Failures and warnings: ${count(report.problems.length)}`,
    '',
    ...list(report.problems.map((index) => text(cutText(eventText(report.events[index]!, report.cwd), PROBLEM_CHARS)))),
  ];
  return lines.join('\n') + '\n';
}

/** From a trace: the subagent tree (a nested list) and the tool calls with their durations; nothing without one. */
function treeLines(report: Report): string[] {
  const { trace } = report;
  if (trace === undefined) return [];
  const name = (agent: TraceAgent | undefined) =>
    agent === undefined || agent.agent_id === undefined
      ? text(trace.harness ?? 'run')
      : `${text(agent.name ?? 'subagent')} ${code(agent.agent_id)}`;
  // The run's own duration is the summary's.
  const agents = trace.agents.map(
    (agent) =>
      `${'  '.repeat(agent.depth)}- ${name(agent)}${agent.background ? ' (background)' : ''}: ` +
      `${agent.depth > 0 ? `${ending(agent)}, ` : ''}${plural(agent.calls.length, 'call')}`,
  );
  const failed = trace.calls.filter((call) => call.status !== 'completed').length;
  const byId = new Map(trace.agents.map((agent) => [agent.agent_id, agent]));
  return [
    `#### Agents: ${count(trace.agents.length)} · tool calls: ${count(trace.calls.length)}, ` +
      `${count(failed)} not completed`,
    '',
    ...agents.slice(0, ROWS),
    ...more(agents.length),
    '',
    ...table(
      ['Tool', 'Agent', 'Status', 'Duration'],
      trace.calls.map((call) => [
        code(call.tool),
        name(byId.get(call.agent_id)),
        call.status ?? 'running',
        call.duration === undefined
          ? '—'
          : `${duration(call.duration.ms)}${call.duration.source === 'observed' ? ' (observed)' : ''}`,
      ]),
    ),
  ];
}

/** A table of at most `ROWS` rows and the number left out; nothing to show is "None." */
function table(head: string[], rows: string[][]): string[] {
  if (rows.length === 0) return ['None.', ''];
  const shown = rows.slice(0, ROWS);
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, index) => (index === 0 ? '---' : '--:')).join('|')}|`,
    ...shown.map((row) => `| ${row.join(' | ')} |`),
    ...more(rows.length),
    '',
  ];
}

function list(items: string[]): string[] {
  if (items.length === 0) return ['None.'];
  return [...items.slice(0, ROWS).map((item) => `- ${item}`), ...more(items.length)];
}

function more(total: number): string[] {
  return total > ROWS ? ['', `… and ${count(total - ROWS)} more (see the HTML report).`] : [];
}

/**
 * Plain text on one line of Markdown: every kind of line break a space (a CR or LS would start a line GitHub reads as
 * a heading), and the marks that could format it mid-line escaped (GFM allows `\` before any punctuation): HTML,
 * links, emphasis, tables. On one line it never starts a line, so `#`, `-`, `1.` are safe.
 */
function text(value: string): string {
  return showInvisible(value)
    .replace(LINE_BREAKS, '\n')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[\\`*_[\]<>|~&]/g, '\\$&');
}

/**
 * A code span that holds any text: on one line (line breaks shown as ⏎), fenced with one backtick more than its
 * longest run; `|` escaped for tables. Inside it HTML and links are inert.
 */
function code(given: string): string {
  const value = showInvisible(given).replace(LINE_BREAKS, ' ⏎ ');
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  const padded = value.startsWith('`') || value.endsWith('`') ? ` ${value} ` : value;
  return `${fence}${padded.replace(/\|/g, '\\|')}${fence}`;
}

function cutText(value: string, limit: number): string {
  return value.length <= limit ? value : `${value.slice(0, limit - 1)}…`;
}
