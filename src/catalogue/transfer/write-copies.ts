// Copies of one batch, keyed by their work's slug and their number; the barcode is unique across
// the library. A new or changed copy is a new version of its work (which shows its copies),
// unless this batch created the work.
import { syncCopyCount } from '../copies/index.ts';
import { nextUpdatedAt } from '../shared/index.ts';
import { lastPerKey, selectIn, setVersions, type Batch, type Line } from './batch.ts';
import type { CopyRecord } from './records.ts';

export async function writeCopies(batch: Batch, all: readonly Line<CopyRecord>[]): Promise<void> {
  if (all.length === 0) return;
  const { trx, at, outcomes } = batch;
  const lines = lastPerKey(batch, all, (r) => `${r.werk} ${r.nummer}`);
  const works = new Map(
    (
      await selectIn([...new Set(lines.map((l) => l.record.werk))], (part) =>
        trx
          .selectFrom('works')
          .select(['id', 'slug', 'updated_at'])
          .where('slug', 'in', part)
          .where('deleted_at', 'is', null)
          .execute(),
      )
    ).map((w) => [w.slug, w]),
  );
  const copyRows = await selectIn(
    [...works.values()].map((w) => w.id),
    (part) =>
      trx
        .selectFrom('copies')
        .select([
          'id',
          'work_id',
          'nummer',
          'signatur',
          'barcode',
          'standort',
          'missing_since',
          'item_type',
          'updated_at',
          'deleted_at',
        ])
        .where('work_id', 'in', part)
        .execute(),
  );
  const byKey = new Map(copyRows.map((c) => [`${c.work_id} ${c.nummer}`, c]));
  const barcodes = new Map(
    (
      await selectIn(
        lines.map((l) => l.record.barcode),
        (part) => trx.selectFrom('copies').select(['id', 'barcode']).where('barcode', 'in', part).execute(),
      )
    ).map((c) => [c.barcode, c.id as number | 'batch']),
  );
  // Item types are named by code (ADR 0084); a record may leave its copy's type out.
  const itemTypes = new Set((await trx.selectFrom('item_types').select('code').execute()).map((t) => t.code));
  const touched = new Map<number, string>();
  const added = new Set<number>();
  for (const line of lines) {
    const r = line.record;
    const work = works.get(r.werk);
    if (!work) {
      outcomes.set(line.line, { reason: `werk: no live work ${r.werk}` });
      continue;
    }
    const row = byKey.get(`${work.id} ${r.nummer}`);
    const holder = barcodes.get(r.barcode);
    if (holder !== undefined && holder !== row?.id) {
      outcomes.set(line.line, { reason: `barcode ${r.barcode}: another copy has it` });
      continue;
    }
    const itemType = r.medientyp ?? row?.item_type ?? 'buch';
    if (!itemTypes.has(itemType)) {
      outcomes.set(line.line, { reason: `medientyp: no item type ${itemType}` });
      continue;
    }
    if (row?.deleted_at) {
      outcomes.set(line.line, { reason: `copy ${r.nummer} of ${r.werk}: withdrawn` });
      continue;
    }
    if (
      row &&
      row.signatur === r.signatur &&
      row.barcode === r.barcode &&
      row.standort === r.standort &&
      row.missing_since === r.fehltSeit &&
      row.item_type === itemType
    ) {
      outcomes.set(line.line, 'unchanged');
      continue;
    }
    const fields = {
      signatur: r.signatur,
      barcode: r.barcode,
      standort: r.standort,
      missing_since: r.fehltSeit,
      item_type: itemType,
    };
    if (row) {
      // Its old barcode is free again for a later line of this batch.
      barcodes.delete(row.barcode);
      await trx
        .updateTable('copies')
        .set({ ...fields, updated_at: nextUpdatedAt(at, row.updated_at) })
        .where('id', '=', row.id)
        .execute();
    } else {
      await trx
        .insertInto('copies')
        .values({ work_id: work.id, nummer: r.nummer, ...fields, created_at: at, updated_at: at })
        .execute();
      added.add(work.id);
    }
    barcodes.set(r.barcode, row?.id ?? 'batch');
    if (!batch.newWorks.has(work.id)) touched.set(work.id, nextUpdatedAt(at, work.updated_at));
    outcomes.set(line.line, row ? 'changed' : 'new');
  }
  // works.exemplare is the number of live copies (copies/count.ts).
  for (const workId of added) await syncCopyCount(trx, workId);
  await setVersions(trx, 'works', touched);
}
