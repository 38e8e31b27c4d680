/**
 * The reference page of a harness (docs/harnesses/<name>.md), made from the tables the code
 * runs, its record table and its tool table, set into the hand-written part of the page
 * (lib/harnesses/<name>/notes.md, where `{{records}}` and `{{tools}}` mark their places). A test
 * fails when a page on disk differs from what this makes (`npm run docs` writes them).
 */
import { readFileSync } from 'node:fs';
import { approvalOptions, unknownAgent } from '../lib/harnesses/acp/approval-options.js';
import type { Harness } from '../lib/kernel/harness.js';
import { sharedRecords, type RecordRows } from '../lib/kernel/record-table.js';
import type { SessionFormat } from '../lib/kernel/session.js';
import { sessionFormats } from '../lib/runtime/registry.js';

const root = new URL('../', import.meta.url);

/** Where a harness's hand-written part lives. */
export const notesPath = (name: string) => new URL(`lib/harnesses/${name}/notes.md`, root);
/** Where its page is written. */
export const pagePath = (name: string) => new URL(`docs/harnesses/${name}.md`, root);

/** Text for a Markdown table cell. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function recordRows(rows: RecordRows): string[] {
  return Object.entries(rows).map(([record, row]) => {
    const rules = Object.entries(row.rules)
      .map(([key, id]) => `\`${cell(id)}\`: ${cell(row.descriptions[key] ?? '')}`)
      .join('<br>');
    return `| \`${cell(record)}\` | ${cell(row.handling)} | ${rules} |`;
  });
}

export function recordsTable(harness: Harness): string {
  return [
    "| record | handling | rules (id: what it does; the ids are the audit trail's and metrics.input.rules' keys) |",
    '|---|---|---|',
    ...recordRows(harness.records),
    ...recordRows(sharedRecords).map((row) => row.replace(/^\| `([^`]*)`/, '| ($1)')),
  ].join('\n');
}

export function toolsTable(harness: Harness): string {
  return [
    '| tool | normalized event |',
    '|---|---|',
    ...[...harness.tools].map(([tool, row]) => `| \`${cell(tool)}\` | ${cell(row.doc)} |`),
  ].join('\n');
}

/** A further table of the harness (`{{<name>}}` in its notes), without the shared rows. */
function subtable(rows: RecordRows): string {
  return ['| kind | handling | rules (id: what it does) |', '|---|---|---|', ...recordRows(rows)].join('\n');
}

/**
 * The harness's table of failures (lib/harnesses/<name>/failures.ts), the last section of its page: which of its
 * errors gives which class in `metrics.failure`.
 */
export function failuresSection(harness: Harness): string {
  const rows = Object.entries(harness.failures ?? {}).map(([id, row]) => {
    const code = row.code === undefined ? 'any' : `\`${cell(row.code)}\``;
    return `| \`${cell(id)}\` | ${code} | ${cell(row.description)} | \`${row.class}\` |`;
  });
  return [
    '## Failures',
    '',
    'A failed run\'s `metrics.failure` (docs/contract.md "Run metrics"): the class of the first error event a row ' +
      "matches, rows tried in order; `other` when none does. Each error keeps the harness's own `code`. How the " +
      'library ended a run (`aborted`, `timeout`, `spawn_failed`, `max_buffer`, `stage_failed`) wins over the rows.',
    '',
    '| id | code | what it matches | class |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Where the session files are, and the variables that move them. */
function sessionWhere(format: SessionFormat): string {
  const moved = format.env.map((name) => `\`${name}\``).join(', ');
  return `Files: \`~/${format.where}\`${moved === '' ? '' : `; moved by ${moved}`}.`;
}

/** The ACP agents' approval options (lib/harnesses/acp/approval-options.ts), one row each. */
function approvalsTable(): string {
  const ids = (list: readonly string[]) => (list.length === 0 ? '—' : list.map((id) => `\`${cell(id)}\``).join(', '));
  const ends = (value: boolean | undefined) => (value === undefined ? 'not measured' : value ? 'yes' : 'no');
  const rows = approvalOptions.map(
    (row) =>
      `| \`${row.rule}\` | ${row.presets.join(', ')} | ${ids(row.once)} | ${ids(row.session)} | ${ids(row.always)} | ` +
      `${ids(row.deny)} | ${ends(row.denyEndsTurn)} | ${cell(row.why)} | ${cell(row.evidence)} |`,
  );
  return [
    '| rule | presets | once | session | always | deny | deny ends the turn | left out | evidence |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    `| \`${unknownAgent}\` | any other | its one \`allow_once\` | — | — | its one \`reject_once\` | not measured | ` +
      'two options of a kind cannot be told apart | — |',
  ].join('\n');
}

export function harnessPage(harness: Harness): string {
  let page = readFileSync(notesPath(harness.name), 'utf8')
    .replace('{{approvals}}', approvalsTable())
    .replace('{{records}}', recordsTable(harness))
    .replace('{{tools}}', toolsTable(harness));
  for (const [name, rows] of Object.entries(harness.tables ?? {})) page = page.replace(`{{${name}}}`, subtable(rows));
  // The session reader's own table (lib/harnesses/<name>/session.ts), beside the stdout one.
  const session = sessionFormats.get(harness.name);
  if (session) page = page.replace('{{session}}', `${sessionWhere(session)}\n\n${subtable(session.reader.records)}`);
  if (harness.failures !== undefined) page = `${page.trimEnd()}\n\n${failuresSection(harness)}\n`;
  return (
    `<!-- Generated by \`npm run docs\` from lib/harnesses/${harness.name}/: edit notes.md there and the ` +
    `tables in the code, not this file. -->\n\n${page}`
  );
}
