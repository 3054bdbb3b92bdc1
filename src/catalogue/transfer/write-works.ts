// Works of one batch: their persons are named by slug and must be live persons (in the
// database, or earlier in the file); new works are inserted many per statement with their links,
// known ones rewritten only when a field or the list of persons differs. As in the work store,
// every person shown before or after gets a new version (a person's page lists its works),
// except persons this batch created: their first version already shows the work.
import { workSortKey, workSearchText } from '../works/index.ts';
import { nextUpdatedAt, touchRows } from '../shared/index.ts';
import { chunks, lastPerKey, selectIn, setVersions, type Batch, type Line } from './batch.ts';
import type { WorkRecord } from './records.ts';
import type { Keyed } from './external-ids.ts';

type Work = Keyed<WorkRecord>;
import { formerSlugs } from './write-persons.ts';
import { addGeneratedCopies } from './new-copies.ts';
import { setCopyCount } from '../copies/index.ts';

interface Author {
  readonly id: number;
  readonly vorname: string;
  readonly nachname: string;
  readonly updated_at: string;
}

export async function writeWorks(batch: Batch, all: readonly Line<Work>[]): Promise<void> {
  if (all.length === 0) return;
  const { trx, at, outcomes } = batch;
  const lines = lastPerKey(batch, all, (r) => r.slug);
  const authorSlugs = [...new Set(lines.flatMap((l) => l.record.personen))];
  const authors = new Map<string, Author>(
    (
      await selectIn(authorSlugs, (part) =>
        trx
          .selectFrom('persons')
          .select(['id', 'slug', 'vorname', 'nachname', 'updated_at'])
          .where('slug', 'in', part)
          .where('deleted_at', 'is', null)
          .execute(),
      )
    ).map((p) => [p.slug, p]),
  );
  const slugs = lines.map((l) => l.record.slug);
  const existing = new Map(
    (
      await selectIn(slugs, (part) =>
        trx
          .selectFrom('works')
          .select([
            'id',
            'slug',
            'titel',
            'jahr',
            'exemplare',
            'updated_at',
            'deleted_at',
            'external_id',
            'isbn',
          ])
          .where('slug', 'in', part)
          .execute(),
      )
    ).map((w) => [w.slug, w]),
  );
  const shown = await liveAuthorSlugs(
    batch,
    [...existing.values()].map((w) => w.id),
  );
  const former = await formerSlugs(
    batch,
    'work',
    slugs.filter((s) => !existing.has(s)),
  );
  const touched = new Map<number, string>();
  const touch = (author: Author) => {
    if (!batch.newPersons.has(author.id)) touched.set(author.id, nextUpdatedAt(at, author.updated_at));
  };
  const inserts: { line: Line<Work>; persons: Author[] }[] = [];
  for (const line of lines) {
    const r = line.record;
    const unknown = r.personen.filter((s) => !authors.has(s));
    if (unknown.length > 0) {
      outcomes.set(line.line, { reason: `personen: no live person ${unknown.join(', ')}` });
      continue;
    }
    const persons = r.personen.map((s) => authors.get(s)!);
    const row = existing.get(r.slug);
    if (!row) {
      if (former.has(r.slug))
        outcomes.set(line.line, { reason: `slug ${r.slug}: a former slug of another work` });
      else inserts.push({ line, persons });
      continue;
    }
    if (row.deleted_at !== null) {
      outcomes.set(line.line, { reason: `slug ${r.slug}: names a deleted work` });
      continue;
    }
    const before = shown.get(row.id) ?? [];
    const copies = r.exemplare !== null && r.exemplare !== row.exemplare;
    // An external id or ISBN the record leaves out keeps the stored one.
    const same =
      row.titel === r.titel &&
      row.jahr === r.jahr &&
      (r.externeId === null || row.external_id === r.externeId) &&
      (r.isbn === null || row.isbn === r.isbn) &&
      !copies &&
      before.join(' ') === r.personen.join(' ');
    if (same) {
      outcomes.set(line.line, 'unchanged');
      continue;
    }
    // First the copies: when too few are free to withdraw, nothing of the work is written.
    if (copies) {
      const nachname = persons[0]?.nachname ?? null;
      const target = { workId: row.id, titel: r.titel, nachname, wanted: r.exemplare!, at };
      if ((await setCopyCount(trx, target)) === 'copies-on-loan') {
        outcomes.set(line.line, {
          reason: `exemplare: too few copies free to withdraw down to ${r.exemplare}`,
        });
        continue;
      }
    }
    // Every person linked before (deleted ones too) or after shows this work differently.
    const linkedBefore = await trx
      .selectFrom('person_work')
      .select('person_id')
      .where('work_id', '=', row.id)
      .execute();
    await touchRows(
      trx,
      'persons',
      linkedBefore.map((l) => l.person_id).filter((id) => !batch.newPersons.has(id)),
      at,
    );
    for (const p of persons) touch(p);
    await trx.deleteFrom('person_work').where('work_id', '=', row.id).execute();
    if (persons.length > 0)
      await trx
        .insertInto('person_work')
        .values(persons.map((p, position) => ({ person_id: p.id, work_id: row.id, position })))
        .execute();
    await trx
      .updateTable('works')
      .set({
        titel: r.titel,
        jahr: r.jahr,
        ...(r.externeId !== null && { external_id: r.externeId }),
        ...(r.isbn !== null && { isbn: r.isbn }),
        sort_key: workSortKey(r.titel),
        search_text: workSearchText(r.titel, persons),
        updated_at: nextUpdatedAt(at, row.updated_at),
      })
      .where('id', '=', row.id)
      .execute();
    outcomes.set(line.line, 'changed');
  }
  for (const part of chunks(inserts)) {
    const ids = await trx
      .insertInto('works')
      .values(
        part.map(({ line: { record: r }, persons }) => ({
          slug: r.slug,
          external_id: r.externeId,
          titel: r.titel,
          jahr: r.jahr,
          isbn: r.isbn,
          // The live copies' number: those made below (works.exemplare, copies/count.ts).
          exemplare: r.exemplare ?? 0,
          sort_key: workSortKey(r.titel),
          search_text: workSearchText(r.titel, persons),
          created_at: at,
          updated_at: at,
        })),
      )
      .returning(['id', 'slug'])
      .execute();
    const idOf = new Map(ids.map((w) => [w.slug, w.id]));
    const links = part.flatMap(({ line, persons }) =>
      persons.map((p, position) => ({ person_id: p.id, work_id: idOf.get(line.record.slug)!, position })),
    );
    for (const some of chunks(links, 300)) await trx.insertInto('person_work').values(some).execute();
    await addGeneratedCopies(
      batch,
      part.map(({ line: { record: r }, persons }) => ({
        id: idOf.get(r.slug)!,
        titel: r.titel,
        nachname: persons[0]?.nachname ?? null,
        copies: r.exemplare ?? 0,
      })),
    );
    for (const { line, persons } of part) {
      batch.newWorks.add(idOf.get(line.record.slug)!);
      persons.forEach(touch);
      outcomes.set(line.line, 'new');
    }
  }
  await setVersions(trx, 'persons', touched);
}

/** The slugs of the live persons of each work, in their order: what the work shows. */
async function liveAuthorSlugs(batch: Batch, workIds: readonly number[]): Promise<Map<number, string[]>> {
  const rows = await selectIn(workIds, (part) =>
    batch.trx
      .selectFrom('person_work')
      .innerJoin('persons', 'persons.id', 'person_work.person_id')
      .select(['person_work.work_id', 'persons.slug'])
      .where('person_work.work_id', 'in', part)
      .where('persons.deleted_at', 'is', null)
      .orderBy('person_work.work_id')
      .orderBy('person_work.position')
      .execute(),
  );
  const byWork = new Map<number, string[]>();
  for (const row of rows) byWork.set(row.work_id, [...(byWork.get(row.work_id) ?? []), row.slug]);
  return byWork;
}
