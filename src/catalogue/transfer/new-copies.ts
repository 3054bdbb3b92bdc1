// The copies a new work is written with when its record gives `exemplare`, as the work store
// makes them (copies/count.ts): numbers 1…n, a generated shelfmark and barcode, 'Freihand'.
// Many per statement: a bulk import of works with copies stays a bulk insert.
import { freshBarcode, barcodeFor, signaturFor } from '../copies/index.ts';
import { chunks, selectIn, type Batch } from './batch.ts';

export interface NewWork {
  readonly id: number;
  readonly titel: string;
  /** The first person's surname, for the shelfmark; null: none. */
  readonly nachname: string | null;
  readonly copies: number;
}

export async function addGeneratedCopies(batch: Batch, works: readonly NewWork[]): Promise<void> {
  const { trx, at } = batch;
  const rows = works.flatMap((w) =>
    Array.from({ length: w.copies }, (_, k) => ({
      work_id: w.id,
      nummer: k + 1,
      signatur: signaturFor(w.nachname, w.id, w.titel, k + 1),
      barcode: barcodeFor(w.id, k + 1),
      standort: 'Freihand',
      missing_since: null,
      created_at: at,
      updated_at: at,
    })),
  );
  if (rows.length === 0) return;
  // Staff may have given a copy a barcode of the generated shape: then a suffixed one, as the store does.
  const taken = new Set(
    (
      await selectIn(
        rows.map((r) => r.barcode),
        (part) => trx.selectFrom('copies').select('barcode').where('barcode', 'in', part).execute(),
      )
    ).map((c) => c.barcode),
  );
  for (const row of rows)
    if (taken.has(row.barcode)) row.barcode = await freshBarcode(trx, row.work_id, row.nummer);
  for (const part of chunks(rows)) await trx.insertInto('copies').values(part).execute();
}
