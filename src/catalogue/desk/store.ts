// What the desk looks up (ADR 0082): a patron by library card number or by name, a copy by its
// barcode or by its URL (work slug and number). Lending itself goes through the loan store.
import { sql, type Kysely } from 'kysely';
import type { PersonRef } from '../model.ts';
import type { DB } from '../tables.ts';

/** A patron as the desk shows them: the person and their card number. */
export interface Patron extends PersonRef {
  readonly cardNumber: string;
  readonly username: string;
}

/** A copy the desk scanned: enough to lend it and to say which it was. */
export interface DeskCopy {
  readonly id: number;
  readonly workId: number;
  readonly workSlug: string;
  readonly titel: string;
  readonly nummer: number;
  readonly barcode: string;
  readonly signatur: string;
}

/** A copy named by its barcode, or by its work's slug and its number (its URL). */
export type CopyKey = { readonly barcode: string } | { readonly slug: string; readonly nummer: number };

export interface DeskStore {
  /** The live person whose account has this card number; null: none. */
  patronByCard(card: string): Promise<Patron | null>;
  /** Live persons with an account whose name or card number contains `q`, by name; at most `limit`. */
  findPatrons(q: string, limit: number): Promise<readonly Patron[]>;
  /** The live copy a key names; null: none. */
  copy(key: CopyKey): Promise<DeskCopy | null>;
}

/** `%`, `_` and the escape character itself taken literally in a LIKE pattern. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function patrons(db: Kysely<DB>) {
  return db
    .selectFrom('accounts')
    .innerJoin('persons', 'persons.id', 'accounts.person_id')
    .where('persons.deleted_at', 'is', null)
    .where('accounts.card_number', 'is not', null)
    .select([
      'persons.id',
      'persons.slug',
      'persons.vorname',
      'persons.nachname',
      'accounts.card_number',
      'accounts.username',
    ]);
}

type PatronRow = Awaited<ReturnType<ReturnType<typeof patrons>['execute']>>[number];

const patronOf = (r: PatronRow): Patron => ({
  id: r.id,
  slug: r.slug,
  vorname: r.vorname,
  nachname: r.nachname,
  cardNumber: r.card_number ?? '',
  username: r.username,
});

export function createDeskStore(db: Kysely<DB>): DeskStore {
  return {
    async patronByCard(card) {
      const row = await patrons(db).where('accounts.card_number', '=', card).executeTakeFirst();
      return row ? patronOf(row) : null;
    },

    async findPatrons(q, limit) {
      const pattern = `%${likeLiteral(q.trim().toLowerCase())}%`;
      const rows = await patrons(db)
        .where((eb) =>
          eb.or([
            eb(sql`lower(persons.vorname || ' ' || persons.nachname)`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(accounts.card_number)`, 'like', sql`${pattern} escape '\\'`),
          ]),
        )
        .orderBy('persons.sort_key')
        .orderBy('persons.id')
        .limit(Math.max(1, Math.min(limit, 100)))
        .execute();
      return rows.map(patronOf);
    },

    async copy(key) {
      let query = db
        .selectFrom('copies')
        .innerJoin('works', 'works.id', 'copies.work_id')
        .where('copies.deleted_at', 'is', null)
        .where('works.deleted_at', 'is', null)
        .select([
          'copies.id',
          'copies.work_id as workId',
          'works.slug as workSlug',
          'works.titel',
          'copies.nummer',
          'copies.barcode',
          'copies.signatur',
        ]);
      query =
        'barcode' in key
          ? query.where('copies.barcode', '=', key.barcode)
          : query.where('works.slug', '=', key.slug).where('copies.nummer', '=', key.nummer);
      return (await query.executeTakeFirst()) ?? null;
    },
  };
}
