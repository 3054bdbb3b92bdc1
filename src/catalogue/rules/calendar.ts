// The library's calendar of closed days (ADR 0084): a due date that falls on one moves to the
// next open day, at the same time of day. Days are UTC calendar days, as every date the
// catalogue shows (loans/strings.ts formats in UTC).
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` of an instant (UTC). */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** Whether `s` is a real calendar day written `YYYY-MM-DD`. */
export function isDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && dayOf(d) === s;
}

/** `due`, or the same time on the first following day that is not closed. */
export async function nextOpenDay(db: Kysely<DB>, due: Date): Promise<Date> {
  // Closed days from the due day on, in order: a run of them pushes the date day by day.
  const closed = await db
    .selectFrom('closed_days')
    .select('day')
    .where('day', '>=', dayOf(due))
    .orderBy('day')
    .limit(366)
    .execute();
  let at = due;
  for (const { day } of closed) {
    if (day !== dayOf(at)) break;
    at = new Date(at.getTime() + DAY_MS);
  }
  return at;
}
