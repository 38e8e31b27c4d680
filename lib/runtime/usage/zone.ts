/** Calendar dates of instants in a time zone, and back (docs/usage.md: days are the records' own, in a zone). Pure. */

const formats = new Map<string, Intl.DateTimeFormat>();

/** The date formatter of a zone (a RangeError for a zone Intl does not know). */
function dateFormat(zone: string | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(key, format);
  }
  return format;
}

/** Throws a RangeError unless Intl knows the zone. */
export function checkZone(zone: string): void {
  dateFormat(zone);
}

/** The calendar date of an instant in a zone: [year, month, day]. */
export function dateIn(at: string, zone: string | undefined): [number, number, number] | undefined {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) return undefined;
  const parts = Object.fromEntries(
    dateFormat(zone)
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  return [Number(parts.year), Number(parts.month), Number(parts.day)];
}

/** The zone's offset from UTC at an instant, in ms (Tokyo: +9 h). */
function offsetAt(ms: number, zone: string | undefined): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(ms)
      .map((part) => [part.type, Number(part.value)]),
  );
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return local - Math.floor(ms / 1000) * 1000;
}

/** The instant a calendar day starts in a zone (`2026-12-01` in Tokyo: 2026-11-30T15:00Z), `days` later. */
export function dayStart(date: string, zone: string | undefined, days = 0): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (match === null) return undefined;
  const midnight = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  if (Number.isNaN(midnight)) return undefined;
  // The offset at the guess, then at the instant it gives (a change of offset that day moves it).
  const first = midnight - offsetAt(midnight, zone);
  return midnight - offsetAt(first, zone);
}
