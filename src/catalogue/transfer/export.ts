// Exports the live catalogue as records: persons, works (with their live persons' slugs in
// order), copies, and with `accounts` the accounts (never a password hash). Each kind is read in
// keyset pages by id, so memory holds one page whatever the catalogue's size, and the order
// (by id: insertion order) makes an import of the export export the same bytes again.
import type { Kysely } from 'kysely';
import type { DB } from '../tables.ts';
import type { AccountRecord, CopyRecord, PersonRecord, TransferRecord, WorkRecord } from './records.ts';

export const EXPORT_PAGE = 1000;

async function* pages<T extends { id: number }>(page: (after: number) => Promise<T[]>): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const rows = await page(after);
    if (rows.length === 0) return;
    yield rows;
    after = rows.at(-1)!.id;
  }
}

export async function* exportRecords(
  db: Kysely<DB>,
  options: { readonly accounts?: boolean } = {},
): AsyncGenerator<TransferRecord> {
  for await (const rows of pages((after) =>
    db
      .selectFrom('persons')
      .select(['id', 'slug', 'external_id', 'vorname', 'nachname', 'image', 'geboren', 'gestorben'])
      .where('deleted_at', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(EXPORT_PAGE)
      .execute(),
  ))
    for (const { id: _id, external_id, ...p } of rows)
      yield { type: 'person', ...p, externeId: external_id } satisfies PersonRecord;

  for await (const rows of pages((after) =>
    db
      .selectFrom('works')
      .select(['id', 'slug', 'external_id', 'titel', 'jahr', 'isbn'])
      .where('deleted_at', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(EXPORT_PAGE)
      .execute(),
  )) {
    const links = await db
      .selectFrom('person_work')
      .innerJoin('persons', 'persons.id', 'person_work.person_id')
      .select(['person_work.work_id', 'persons.slug'])
      .where('person_work.work_id', '>=', rows[0]!.id)
      .where('person_work.work_id', '<=', rows.at(-1)!.id)
      .where('persons.deleted_at', 'is', null)
      .orderBy('person_work.work_id')
      .orderBy('person_work.position')
      .orderBy('person_work.person_id')
      .execute();
    const personen = new Map<number, string[]>();
    for (const link of links) {
      const list = personen.get(link.work_id);
      if (list) list.push(link.slug);
      else personen.set(link.work_id, [link.slug]);
    }
    for (const { id, external_id, ...w } of rows)
      // The copies follow as records of their own (exemplare null: leave them to those).
      yield {
        type: 'work',
        ...w,
        externeId: external_id,
        exemplare: null,
        personen: personen.get(id) ?? [],
      } satisfies WorkRecord;
  }

  for await (const rows of pages((after) =>
    db
      .selectFrom('copies')
      .innerJoin('works', 'works.id', 'copies.work_id')
      .select([
        'copies.id',
        'works.slug',
        'copies.nummer',
        'copies.signatur',
        'copies.barcode',
        'copies.standort',
        'copies.missing_since',
        'copies.item_type',
      ])
      .where('copies.deleted_at', 'is', null)
      .where('works.deleted_at', 'is', null)
      .where('copies.id', '>', after)
      .orderBy('copies.id')
      .limit(EXPORT_PAGE)
      .execute(),
  ))
    for (const c of rows)
      yield {
        type: 'copy',
        werk: c.slug,
        nummer: c.nummer,
        signatur: c.signatur,
        barcode: c.barcode,
        standort: c.standort,
        fehltSeit: c.missing_since,
        medientyp: c.item_type,
      } satisfies CopyRecord;

  if (!options.accounts) return;
  for await (const rows of pages((after) =>
    db
      .selectFrom('accounts')
      .innerJoin('persons', 'persons.id', 'accounts.person_id')
      .select([
        'accounts.person_id as id',
        'accounts.username',
        'persons.slug',
        'accounts.role',
        'accounts.card_number',
      ])
      .where('persons.deleted_at', 'is', null)
      .where('accounts.person_id', '>', after)
      .orderBy('accounts.person_id')
      .limit(EXPORT_PAGE)
      .execute(),
  ))
    for (const a of rows)
      yield {
        type: 'account',
        username: a.username,
        person: a.slug,
        rolle: a.role,
        ...(a.card_number !== null && { ausweis: a.card_number }),
      } satisfies AccountRecord;
}
