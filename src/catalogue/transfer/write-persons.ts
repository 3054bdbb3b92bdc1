// Persons of one batch: new slugs are inserted (many rows per statement), known ones compared
// field by field and only rewritten when a field differs, with what the person store's replace
// does besides: a new version (and of the life dates), the works' search text after a rename,
// and a new version of those works.
import { searchText } from '../../storage/index.ts';
import { personSortKey } from '../persons/index.ts';
import { nextUpdatedAt, touchWorksOf } from '../shared/index.ts';
import { refreshWorkSearchText } from '../works/index.ts';
import { chunks, lastPerKey, selectIn, type Batch, type Line } from './batch.ts';
import type { PersonRecord } from './records.ts';
import type { Keyed } from './external-ids.ts';

type Person = Keyed<PersonRecord>;

function columns(r: Person) {
  return {
    // No external id in the record: the stored one is kept.
    ...(r.externeId !== null && { external_id: r.externeId }),
    vorname: r.vorname,
    nachname: r.nachname,
    image: r.image,
    geboren: r.geboren,
    gestorben: r.gestorben,
    sort_key: personSortKey(r.vorname, r.nachname),
    search_text: searchText(r.vorname, r.nachname),
  };
}

/** Slugs of the kind that once named a resource and now redirect: never given to a new one. */
export async function formerSlugs(
  batch: Batch,
  kind: 'person' | 'work',
  slugs: string[],
): Promise<Set<string>> {
  const rows = await selectIn(slugs, (part) =>
    batch.trx
      .selectFrom('slug_history')
      .select('slug')
      .where('kind', '=', kind)
      .where('slug', 'in', part)
      .execute(),
  );
  return new Set(rows.map((row) => row.slug));
}

export async function writePersons(batch: Batch, all: readonly Line<Person>[]): Promise<void> {
  if (all.length === 0) return;
  const { trx, at, outcomes } = batch;
  const lines = lastPerKey(batch, all, (r) => r.slug);
  const slugs = lines.map((l) => l.record.slug);
  const existing = new Map(
    (
      await selectIn(slugs, (part) =>
        trx
          .selectFrom('persons')
          .select([
            'id',
            'slug',
            'vorname',
            'nachname',
            'image',
            'geboren',
            'gestorben',
            'created_at',
            'updated_at',
            'deleted_at',
            'life_dates_updated_at',
            'external_id',
          ])
          .where('slug', 'in', part)
          .execute(),
      )
    ).map((row) => [row.slug, row]),
  );
  const former = await formerSlugs(
    batch,
    'person',
    slugs.filter((s) => !existing.has(s)),
  );
  const inserts: Line<Person>[] = [];
  for (const line of lines) {
    const r = line.record;
    const row = existing.get(r.slug);
    if (!row) {
      if (former.has(r.slug))
        outcomes.set(line.line, { reason: `slug ${r.slug}: a former slug of another person` });
      else inserts.push(line);
      continue;
    }
    if (row.deleted_at !== null) {
      outcomes.set(line.line, { reason: `slug ${r.slug}: names a deleted person` });
      continue;
    }
    const same =
      row.vorname === r.vorname &&
      row.nachname === r.nachname &&
      row.image === r.image &&
      row.geboren === r.geboren &&
      row.gestorben === r.gestorben &&
      (r.externeId === null || row.external_id === r.externeId);
    if (same) {
      outcomes.set(line.line, 'unchanged');
      continue;
    }
    // Any change is a new version of the person and of its life dates (their page shows the name).
    await trx
      .updateTable('persons')
      .set({
        ...columns(r),
        updated_at: nextUpdatedAt(at, row.updated_at),
        life_dates_updated_at: nextUpdatedAt(at, row.life_dates_updated_at ?? row.created_at),
      })
      .where('id', '=', row.id)
      .execute();
    if (row.vorname !== r.vorname || row.nachname !== r.nachname) {
      await refreshWorkSearchText(trx, { personId: row.id });
      await touchWorksOf(trx, row.id, at);
    }
    outcomes.set(line.line, 'changed');
  }
  for (const part of chunks(inserts)) {
    const ids = await trx
      .insertInto('persons')
      .values(part.map(({ record: r }) => ({ slug: r.slug, ...columns(r), created_at: at, updated_at: at })))
      .returning('id')
      .execute();
    for (const { id } of ids) batch.newPersons.add(id);
    for (const line of part) outcomes.set(line.line, 'new');
  }
}
