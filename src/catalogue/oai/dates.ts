// OAI-PMH datestamps (ADR 0081). The repository's granularity is seconds
// (YYYY-MM-DDThh:mm:ssZ); a harvester may also give days (YYYY-MM-DD), which every repository
// must accept (OAI-PMH 2.0, 3.3.2). Stored stamps are ISO 8601 UTC text with milliseconds
// (ADR 0041), so a bound is compared as text: from inclusive, until as the exclusive start of
// the next second (or day), so `until=…T12:00:00Z` includes a change at 12:00:00.750.

export const GRANULARITY = 'YYYY-MM-DDThh:mm:ssZ';

export type Granularity = 'day' | 'second';

export interface DateArgument {
  readonly granularity: Granularity;
  /** The first millisecond the argument names, as stored stamps are written. */
  readonly start: string;
  /** The first millisecond after what the argument names: the exclusive upper bound for `until`. */
  readonly end: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECOND = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** A `from`/`until` argument, or null when it is not a date of either granularity. */
export function parseDateArgument(value: string): DateArgument | null {
  const granularity: Granularity | null = DAY.test(value) ? 'day' : SECOND.test(value) ? 'second' : null;
  if (granularity === null) return null;
  const ms = Date.parse(granularity === 'day' ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) return null;
  const start = new Date(ms).toISOString();
  // Date.parse rolls 2026-02-30 over to March: a date that does not read back is not a date.
  if (!start.startsWith(granularity === 'day' ? value : value.slice(0, 19))) return null;
  const end = new Date(ms + (granularity === 'day' ? 86_400_000 : 1000)).toISOString();
  return { granularity, start, end };
}

/** A stored stamp (or a moment) as an OAI datestamp: the second it falls in. */
export function datestamp(stamp: string | Date): string {
  const iso = typeof stamp === 'string' ? new Date(stamp).toISOString() : stamp.toISOString();
  return `${iso.slice(0, 19)}Z`;
}

/** The exclusive upper bound that includes every change up to the end of the second of `at`. */
export function endOfSecond(at: Date): string {
  return new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000).toISOString();
}
