// A resource whose URL was renamed (its old slug answers 301). PUT never moves a resource (the
// URL given is where it is stored); a rename is its own act, which tests set up here directly.
import type { Kysely } from 'kysely';
import { rememberSlug } from '../../../src/catalogue/slugs.ts';
import type { DB, SlugKind } from '../../../src/catalogue/tables.ts';

const TABLE = { person: 'persons', work: 'works' } as const;

export async function moveSlug(db: Kysely<DB>, kind: SlugKind, id: number, newSlug: string): Promise<void> {
  const table = TABLE[kind];
  const row = await db.selectFrom(table).select('slug').where('id', '=', id).executeTakeFirstOrThrow();
  await db.updateTable(table).set({ slug: newSlug }).where('id', '=', id).execute();
  await rememberSlug(db, kind, id, row.slug, newSlug, new Date().toISOString());
}
