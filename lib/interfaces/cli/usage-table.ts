/**
 * How `harness-events usage` shows its rows: a text table (every value from the files made inert: an agent names
 * its subagents, skills and projects), CSV, or versioned JSON lines. Pure.
 */
import type { UsageRow } from '../../runtime/usage/account.js';
import type { UsageCost } from '../../runtime/usage/call.js';
import type { UsageGroup } from '../../runtime/usage/group.js';
import { oneLine } from '../view/invisible.js';

const tokenColumns = ['input', 'output', 'cache_read', 'cache_write', 'reasoning'] as const;

const dollars = (usd: number) => `$${usd < 0.01 && usd > 0 ? usd.toPrecision(2) : usd.toFixed(2)}`;

/**
 * A cost as the table shows it: `$1.23` reported, `~$1.23` estimated, `?` unknown, `$1.23+?` partly unknown; on a
 * subscription, ` plan` after it (every call) or ` (plan $0.50)` (the part of it that was).
 */
export function costText(cost: UsageCost): string {
  const plan =
    cost.subscription === true
      ? ' plan'
      : cost.subscription_usd === undefined
        ? ''
        : ` (plan ${dollars(cost.subscription_usd)})`;
  if (cost.usd === undefined) return `?${plan}`;
  const usd = dollars(cost.usd);
  return (cost.source === 'estimated' ? `~${usd}` : cost.source === 'unknown' ? `${usd}+?` : usd) + plan;
}

const count = (value: number) => value.toLocaleString('en-US');

/** A row's tokens no call itemizes, every class summed. */
const unitemized = (row: UsageRow) => tokenColumns.reduce((sum, name) => sum + row.unitemized[name], 0);

/**
 * The text table: a header, one line per row, then the total; an `unitemized` column when some run's total had tokens
 * beyond its calls.
 */
export function usageTable(rows: readonly UsageRow[], total: UsageRow, by: readonly UsageGroup[]): string {
  const more = unitemized(total) > 0;
  const tokens = ['input', 'output', 'cache read', 'cache write', 'reasoning', ...(more ? ['unitemized'] : [])];
  const header = [...by, 'calls', ...tokens, 'cost'];
  const line = (row: UsageRow, names: string[]) => [
    ...names,
    count(row.calls),
    ...tokenColumns.map((name) => count(row.tokens[name])),
    ...(more ? [count(unitemized(row))] : []),
    costText(row.cost),
  ];
  const body = rows.map((row) =>
    line(
      row,
      by.map((name) => oneLine(row.group[name] ?? '')),
    ),
  );
  const cells = [
    header,
    ...body,
    line(
      total,
      by.map((_, index) => (index === 0 ? 'total' : '')),
    ),
  ];
  const widths = header.map((_, column) => Math.max(...cells.map((cells) => [...cells[column]!].length)));
  const text = (cells: string[]) =>
    cells
      .map((cell, column) => (column < by.length ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const dates = [...new Set([...rows, total].flatMap((row) => row.cost.prices_date ?? []))];
  const legend =
    'cost: $ reported by the CLI, ~$ estimated from the price table' +
    (dates.length > 0 ? ` (prices of ${dates.join(', ')})` : '') +
    ', ? unknown (a model without a price: never counted as $0)' +
    (rows.some((row) => row.cost.subscription === true || row.cost.subscription_usd !== undefined)
      ? "\nplan: calls on a subscription, at the API's price (not paid per token)"
      : '') +
    (more ? "\nunitemized: of the tokens, those of a run's own total that no call on its stdout gives" : '');
  return [text(header), rule, ...body.map(text), rule, text(cells.at(-1)!), '', legend].join('\n') + '\n';
}

/** One JSON object per row (`v: 2`). */
export function usageJson(rows: readonly UsageRow[]): string {
  return rows.map((row) => JSON.stringify(row) + '\n').join('');
}

/** A CSV field: quoted when it must be, and a leading `=`, `+`, `-` or `@` made text (a spreadsheet runs formulas). */
function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * CSV with a header: the groups, the calls, each token class, the tokens no call itemizes (every class summed), the
 * cost's fields, the first and last call's times.
 */
export function usageCsv(rows: readonly UsageRow[], by: readonly UsageGroup[]): string {
  const header = [
    ...by,
    'calls',
    ...tokenColumns,
    'unitemized',
    'cost_usd',
    'cost_source',
    'prices_date',
    'unpriced',
    'subscription_usd',
    'first',
    'last',
  ];
  const lines = rows.map((row) =>
    [
      ...by.map((name) => row.group[name]),
      row.calls,
      ...tokenColumns.map((name) => row.tokens[name]),
      unitemized(row),
      row.cost.usd,
      row.cost.source,
      row.cost.prices_date,
      row.cost.unpriced,
      row.cost.subscription_usd,
      row.first,
      row.last,
    ]
      .map(csvField)
      .join(','),
  );
  return [header.join(','), ...lines].map((line) => line + '\r\n').join('');
}
