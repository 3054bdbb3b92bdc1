// What the Atom feeds list (ADR 0096): the live works entered last, of the whole catalogue or of
// one person, newest first by primary key (ids grow with every insert: one index range at any
// size), each with its live persons in order and its two dates.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import type { PersonRef } from '../model.ts';
import { personsOfWorks } from '../works/index.ts';

export interface FeedEntry {
  readonly id: number;
  readonly slug: string;
  readonly titel: string;
  readonly jahr: number | null;
  readonly personen: readonly PersonRef[];
  /** When the work was entered: the entry's `published`. */
  readonly createdAt: Date;
  /** Its last change: the entry's `updated`. */
  readonly updatedAt: Date;
}

export interface FeedSource {
  /** The newest `limit` live works. */
  newest(limit: number): Promise<readonly FeedEntry[]>;
  /** The newest `limit` live works of one person. */
  ofPerson(personId: number, limit: number): Promise<readonly FeedEntry[]>;
}

/** Entries per feed: what a feed reader shows, not an archive (the lists page the rest). */
export const FEED_SIZE = 50;

export function sqlFeedSource(db: Kysely<DB>): FeedSource {
  const live = () =>
    db
      .selectFrom('works')
      .select(['works.id', 'works.slug', 'works.titel', 'works.jahr', 'works.created_at', 'works.updated_at'])
      .where('works.deleted_at', 'is', null);
  async function entries(rows: Awaited<ReturnType<ReturnType<typeof live>['execute']>>) {
    const persons = await personsOfWorks(
      db,
      rows.map((w) => w.id),
    );
    return rows.map((w) => ({
      id: w.id,
      slug: w.slug,
      titel: w.titel,
      jahr: w.jahr,
      personen: persons.get(w.id) ?? [],
      createdAt: new Date(w.created_at),
      updatedAt: new Date(w.updated_at),
    }));
  }
  return {
    async newest(limit) {
      return entries(await live().orderBy('works.id', 'desc').limit(limit).execute());
    },
    async ofPerson(personId, limit) {
      const rows = await live()
        .innerJoin('person_work', 'person_work.work_id', 'works.id')
        .where('person_work.person_id', '=', personId)
        .orderBy('works.id', 'desc')
        .limit(limit)
        .execute();
      return entries(rows);
    },
  };
}
