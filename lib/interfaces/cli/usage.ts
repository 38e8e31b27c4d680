/**
 * `harness-events usage`: the model calls of the agents' sessions under the homes, each counted once, grouped and
 * priced (docs/usage.md); `--watch` shows it again as the sessions change, until Ctrl-C.
 */
import type { WriteStream } from 'node:tty';
import { parseArgs } from 'node:util';
import { isHarnessName, sessionFormats } from '../../runtime/registry.js';
import { isUsageGroup, usageGroups, type UsageGroup } from '../../runtime/usage/group.js';
import { periodOf, type UsageSessions } from '../../runtime/usage/sources.js';
import { accountUsage, type UsageReport } from '../../runtime/usage/usage.js';
import { watchUsage } from '../../runtime/usage/watch.js';
import { loadPriceTable, type PriceTable } from '../../runtime/usage/prices.js';
import { checkZone } from '../../runtime/usage/zone.js';
import { commandHelp, writeHelp } from './help.js';
import { say } from './output.js';
import { homeOption } from './session-input.js';
import { trapStopSignals } from './signals.js';
import { usageCsv, usageJson, usageTable } from './usage-table.js';
import { UsageError } from './usage-error.js';

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        home: { type: 'string', multiple: true },
        harness: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        by: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        csv: { type: 'boolean' },
        tz: { type: 'string' },
        watch: { type: 'boolean' },
        ledger: { type: 'string' },
        prices: { type: 'string' },
        subscription: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** --by, repeated or with commas; default: by day. */
function groupsOf(values: string[] | undefined): UsageGroup[] {
  const names = (values ?? ['day']).flatMap((value) => value.split(',')).map((name) => name.trim());
  for (const name of names)
    if (!isUsageGroup(name)) throw new UsageError(`--by takes ${usageGroups.join(', ')}; got "${name}"`);
  return [...new Set(names as UsageGroup[])];
}

/** --subscription, repeated or with commas: harness names. */
function subscriptionsOf(values: string[] | undefined): string[] | undefined {
  const names = values?.flatMap((value) => value.split(',')).map((name) => name.trim());
  for (const name of names ?? [])
    if (!isHarnessName(name)) throw new UsageError(`--subscription takes harness names; got "${name}"`);
  return names;
}

export async function usageCommand(args: string[], stdout: NodeJS.WritableStream): Promise<number> {
  const { values } = parse(args);
  if (values.help) return writeHelp(stdout, commandHelp('usage'));
  const by = groupsOf(values.by);
  if (values.json && values.csv) throw new UsageError('--json and --csv: one at most');
  const { harness, tz } = values;
  if (harness !== undefined && !sessionFormats.has(harness))
    throw new UsageError(`no session reader for "${harness}" (read: ${[...sessionFormats.keys()].join(', ')})`);
  if (tz !== undefined) {
    try {
      checkZone(tz);
    } catch {
      throw new UsageError(`--tz takes a time zone name (Europe/Paris, UTC, ...); got "${tz}"`);
    }
  }
  const subscription = subscriptionsOf(values.subscription);
  const homes = values.home?.map((home) => homeOption(home)!);
  const selection: UsageSessions = { homes, harness, since: values.since, until: values.until };
  try {
    periodOf(selection, tz);
  } catch (error) {
    throw new UsageError(`--${(error as Error).message} (a date, 2026-12-01, or a time, 2026-12-01T12:00:00Z)`);
  }
  const prices = await priceTable(values.prices);
  const options = { by, tz, ledger: values.ledger, onWarning: say, prices, subscription };
  const render = (report: UsageReport) =>
    values.json
      ? usageJson(report.rows)
      : values.csv
        ? usageCsv(report.rows, by)
        : usageTable(report.rows, report.total, by);
  if (!values.watch) {
    const report = await accountUsage(selection, options);
    stdout.write(render(report));
    return 0;
  }
  return watch(selection, { ...options, json: values.json, csv: values.csv }, render, stdout);
}

/**
 * The price table, with --prices' file over it; without the optional peer, costs are the CLIs' own or unknown (said
 * once), unless --prices asked for one.
 */
async function priceTable(overrides: string | undefined): Promise<PriceTable | undefined> {
  return loadPriceTable({ overrides }).catch((error: Error) => {
    if (overrides !== undefined) throw new UsageError(error.message);
    say(`costs the CLIs did not report are unknown: ${error.message}`);
    return undefined;
  });
}

/** --watch: the table again at each change, in place on a terminal; ends on a stop signal, nothing left running. */
async function watch(
  selection: UsageSessions,
  options: {
    by: UsageGroup[];
    tz?: string;
    ledger?: string;
    prices?: PriceTable;
    subscription?: string[];
    onWarning: (message: string) => void;
    json?: boolean;
    csv?: boolean;
  },
  render: (report: UsageReport) => string,
  stdout: NodeJS.WritableStream,
): Promise<number> {
  const controller = new AbortController();
  const signals = trapStopSignals(() => controller.abort());
  const terminal = (stdout as WriteStream).isTTY === true;
  const table = !options.json && !options.csv;
  let shown = 0;
  try {
    await watchUsage(selection, {
      ...options,
      signal: controller.signal,
      onReport(report) {
        const text = render(report);
        // On a terminal the table before is erased (cursor up its lines, clear to the end); elsewhere each follows
        // (a table after a blank line; JSON and CSV rows as they are, each line one row).
        const before = terminal ? (shown > 0 ? `\x1b[${shown}F\x1b[J` : '') : shown > 0 && table ? '\n' : '';
        stdout.write(before + text);
        shown = text.split('\n').length - 1;
      },
    });
  } finally {
    signals.off();
  }
  return signals.exitCode ?? 0;
}
