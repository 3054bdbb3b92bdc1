// The works as OAI-PMH records (ADR 0081), read a page at a time. A record's datestamp is the
// work's `updated_at` (every change of what the work shows moves it, ADR 0024; a deletion
// stamps it too and leaves the row as the tombstone), so a list is a keyset walk on
// (updated_at, id) over the index of migration 0018, deleted works included. A page brings
// its works' persons and live copies in two more queries; nothing holds more than a page.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';

export interface RecordHeader {
  readonly id: number;
  readonly slug: string;
  /** The stored stamp (ISO 8601 with milliseconds). */
  readonly stamp: string;
  readonly deleted: boolean;
}

export interface RecordPerson {
  readonly slug: string;
  readonly vorname: string;
  readonly nachname: string;
}

export interface RecordCopy {
  readonly nummer: number;
  readonly signatur: string;
  readonly barcode: string;
  readonly standort: string;
  readonly missingSince: string | null;
}

export interface WorkRecord extends RecordHeader {
  readonly titel: string;
  readonly jahr: number | null;
  readonly isbn: string | null;
  readonly createdAt: string;
  readonly personen: readonly RecordPerson[];
  readonly copies: readonly RecordCopy[];
}

export interface StampRange {
  /** Inclusive; null: from the first. */
  readonly from: string | null;
  /** Exclusive. */
  readonly until: string;
}

export interface RecordSource {
  /** The earliest datestamp of any record, deleted ones included; null: no work ever. */
  earliest(): Promise<string | null>;
  /** How many records lie in the range. */
  count(range: StampRange): Promise<number>;
  /** Up to `n` headers in the range after `after`, in (stamp, id) order. */
  headers(range: StampRange, after: { stamp: string; id: number } | null, n: number): Promise<RecordHeader[]>;
  /** The records of these headers (the live ones with their metadata), in the same order. */
  records(headers: readonly RecordHeader[]): Promise<WorkRecord[]>;
  /** One header by the work's slug (current or deleted); null: none. */
  bySlug(slug: string): Promise<RecordHeader | null>;
}

function inRange(db: Kysely<DB>, range: StampRange) {
  let query = db.selectFrom('works').where('updated_at', '<', range.until);
  if (range.from !== null) query = query.where('updated_at', '>=', range.from);
  return query;
}

interface HeaderRow {
  readonly id: number;
  readonly slug: string;
  readonly updated_at: string;
  readonly deleted_at: string | null;
}

const toHeader = (r: HeaderRow): RecordHeader => ({
  id: r.id,
  slug: r.slug,
  stamp: r.updated_at,
  deleted: r.deleted_at !== null,
});

const HEADER_COLUMNS = ['id', 'slug', 'updated_at', 'deleted_at'] as const;

export function sqlRecordSource(db: Kysely<DB>): RecordSource {
  return {
    async earliest() {
      const row = await db
        .selectFrom('works')
        .select('updated_at')
        .orderBy('updated_at')
        .limit(1)
        .executeTakeFirst();
      return row?.updated_at ?? null;
    },

    async count(range) {
      const row = await inRange(db, range)
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    // Two exact index seeks rather than one row-value comparison: the rest of the last stamp
    // after the last id, then the later stamps. SQLite seeks a row value only on its first
    // column, so a stamp shared by many rows (an import writes 1,000 per transaction with one
    // stamp, a bulk load may write all with one) would be scanned again for every page.
    async headers(range, after, n) {
      const ordered = (q: ReturnType<typeof inRange>) =>
        q.select(HEADER_COLUMNS).orderBy('updated_at').orderBy('id').limit(n);
      if (!after) return (await ordered(inRange(db, range)).execute()).map(toHeader);
      const sameStamp = await ordered(
        inRange(db, range).where('updated_at', '=', after.stamp).where('id', '>', after.id),
      ).execute();
      if (sameStamp.length === n) return sameStamp.map(toHeader);
      const later = await ordered(inRange(db, range).where('updated_at', '>', after.stamp))
        .limit(n - sameStamp.length)
        .execute();
      return [...sameStamp, ...later].map(toHeader);
    },

    async records(headers) {
      const ids = headers.filter((h) => !h.deleted).map((h) => h.id);
      if (ids.length === 0) return headers.map(emptyRecord);
      const works = await db
        .selectFrom('works')
        .select(['id', 'titel', 'jahr', 'isbn', 'created_at'])
        .where('id', 'in', ids)
        .execute();
      const persons = await db
        .selectFrom('person_work')
        .innerJoin('persons', 'persons.id', 'person_work.person_id')
        .select(['person_work.work_id', 'persons.slug', 'vorname', 'nachname'])
        .where('person_work.work_id', 'in', ids)
        .where('persons.deleted_at', 'is', null)
        .orderBy('person_work.work_id')
        .orderBy('person_work.position')
        .execute();
      const copies = await db
        .selectFrom('copies')
        .select(['work_id', 'nummer', 'signatur', 'barcode', 'standort', 'missing_since'])
        .where('work_id', 'in', ids)
        .where('deleted_at', 'is', null)
        .orderBy('work_id')
        .orderBy('nummer')
        .execute();
      const workById = new Map(works.map((w) => [w.id, w]));
      const personsOf = groupBy(persons, (p) => p.work_id);
      const copiesOf = groupBy(copies, (c) => c.work_id);
      return headers.map((h) => {
        const w = workById.get(h.id);
        if (h.deleted || !w) return emptyRecord(h);
        return {
          ...h,
          titel: w.titel,
          jahr: w.jahr,
          isbn: w.isbn,
          createdAt: w.created_at,
          personen: (personsOf.get(h.id) ?? []).map(({ work_id: _w, ...p }) => p),
          copies: (copiesOf.get(h.id) ?? []).map((c) => ({
            nummer: c.nummer,
            signatur: c.signatur,
            barcode: c.barcode,
            standort: c.standort,
            missingSince: c.missing_since,
          })),
        };
      });
    },

    async bySlug(slug) {
      const row = await db
        .selectFrom('works')
        .select(HEADER_COLUMNS)
        .where('slug', '=', slug)
        .executeTakeFirst();
      return row ? toHeader(row) : null;
    },
  };
}

function emptyRecord(h: RecordHeader): WorkRecord {
  return { ...h, titel: '', jahr: null, isbn: null, createdAt: h.stamp, personen: [], copies: [] };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}
