/**
 * Grouping accounted calls into rows (docs/usage.md): by session, day, week, month, model, harness, project,
 * subagent and skill, several at once. Days, ISO weeks and months are the calls' own times in a time zone. Pure.
 */
import type { UsageCall } from './call.js';
import { dateIn } from './zone.js';

/** What rows can be grouped by. */
export const usageGroups = [
  'session',
  'day',
  'week',
  'month',
  'model',
  'harness',
  'project',
  'subagent',
  'skill',
] as const;
/** One of {@link usageGroups}. */
export type UsageGroup = (typeof usageGroups)[number];

export function isUsageGroup(name: string): name is UsageGroup {
  return (usageGroups as readonly string[]).includes(name);
}

/** A value a call does not have, as its row shows it. */
const absent: Record<UsageGroup, string> = {
  session: '(none)',
  day: '(none)',
  week: '(none)',
  month: '(none)',
  model: '(unknown)',
  harness: '(unknown)',
  project: '(unknown)',
  subagent: '(main)',
  skill: '(none)',
};

const pad = (value: number) => String(value).padStart(2, '0');

/** The ISO 8601 week of a calendar date (`2026-W49`): weeks start on Monday, week 1 holds the year's first Thursday. */
function isoWeek([year, month, day]: [number, number, number]): string {
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const first = Date.UTC(date.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((date.getTime() - first) / 86_400_000 + 1) / 7);
  return `${date.getUTCFullYear()}-W${pad(week)}`;
}

/** A call's value for one group (in `zone` for the times; default: this process's zone). */
export function groupValue(call: UsageCall, group: UsageGroup, zone?: string): string {
  let value: string | undefined;
  if (group === 'day' || group === 'week' || group === 'month') {
    const date = dateIn(call.at, zone);
    if (date !== undefined) {
      const [year, month, day] = date;
      value =
        group === 'day'
          ? `${year}-${pad(month)}-${pad(day)}`
          : group === 'month'
            ? `${year}-${pad(month)}`
            : isoWeek(date);
    }
  } else if (group === 'subagent') value = call.unitemized ? '(unitemized)' : (call.subagent ?? call.agent);
  else value = call[group];
  return value ?? absent[group];
}
