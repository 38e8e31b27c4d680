/** The help of `harness-events usage`: its options (beside the ones it shares) and its usage, for help.ts. */
import { usageGroups } from '../../runtime/usage/group.js';

/** The options only `usage` takes, as help.ts's table holds them. */
export const usageOptionHelp = {
  until: ['--until <time>', 'usage: calls before this time, or up to the end of this date (in --tz)'],
  by: [
    '--by <groups>',
    `usage: the rows' groups, several with commas or repeated: ${usageGroups.join(', ')}`,
    '(default: day)',
  ],
  csv: ['--csv', 'usage: CSV rows with a header'],
  tz: ['--tz <zone>', 'usage: the time zone days, weeks and months are taken in (default: the local zone)'],
  watch: ['--watch', 'usage: show it again each time a session changes (in place on a terminal), until Ctrl-C'],
  ledger: [
    '--ledger <file>',
    'usage: a JSONL ledger of the calls counted: read first, and the new calls appended,',
    "each once, so history outlives the agents' own files",
  ],
  subscription: [
    '--subscription <harness>',
    "usage: the harness's calls were on a plan (a CLI logged in to a subscription): their cost is",
    "marked, the API's price of what was not paid per token; repeated or with commas",
  ],
} satisfies Record<string, [string, ...string[]]>;

export const usageCommandHelp = {
  usage: `  harness-events usage [--home <dir>]... [--harness <name>] [--since <date>] [--until <date>]
                       [--by <groups>] [--json | --csv] [--tz <zone>] [--watch] [--ledger <file>] [--prices <file>]
                       [--subscription <harness>]...
      The tokens and cost of every model call in the sessions the agents saved under the
      homes (default: yours), each call counted once however many files restate it (resumes,
      forks, subagents), grouped by day unless --by says otherwise. A cost is the CLI's own
      where it reports one, else estimated from the price table, else unknown, never $0 (see
      docs/usage.md).`,
  options: [
    'home',
    'harness',
    'since',
    'until',
    'by',
    'json',
    'csv',
    'tz',
    'watch',
    'ledger',
    'prices',
    'subscription',
  ] as const,
  examples: [
    'harness-events usage --by day,model',
    'harness-events usage --home /mnt/backup/me --since 2026-12-01 --by session --json',
    'harness-events usage --watch --by harness --ledger ~/agent-usage.jsonl',
    'harness-events usage --by month,harness --subscription claude-code,codex',
  ],
  exitCodes: `0 accounted (warnings on stderr: sessions read in part, formats not known); 2 usage error;
with --watch, 128 + n after signal n (130 Ctrl-C).`,
};
