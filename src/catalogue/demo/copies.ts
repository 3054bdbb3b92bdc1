// The demo's copies: every copy with a believable shelfmark (`Goe 12 Fa`: the first author's
// filing surname, the work's number among that author's works, the title's first letters;
// further copies `Goe 12 Fa+2`), a barcode, and a location — most on the open shelves, some in
// the stacks or the reading room, stable per copy so every load looks the same.
import type { Insertable } from 'kysely';
import { barcodeFor, signaturFor } from '../copies/index.ts';
import type { CopiesTable } from '../tables.ts';

export const DEMO_LOCATIONS = ['Freihand', 'Freihand', 'Freihand', 'Magazin', 'Lesesaal'] as const;

export interface DemoCopyWork {
  readonly id: number;
  readonly titel: string;
  /** The first author's surname; null: none. */
  readonly nachname: string | null;
  readonly exemplare: number;
}

/** Numbers the works per shelfmark prefix: an author's works are 10, 12, 14, … on the shelf. */
export function shelfNumbers(): (nachname: string | null) => number {
  const seen = new Map<string, number>();
  return (nachname) => {
    const key = signaturFor(nachname, 0, '', 1);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return 8 + 2 * n;
  };
}

/** The rows of a work's copies, numbered 1 … exemplare. */
export function demoCopyRows(work: DemoCopyWork, shelfNumber: number, at: string): Insertable<CopiesTable>[] {
  return Array.from({ length: work.exemplare }, (_, i) => {
    const nummer = i + 1;
    return {
      work_id: work.id,
      nummer,
      signatur: signaturFor(work.nachname, shelfNumber, work.titel, nummer),
      barcode: barcodeFor(work.id, nummer),
      standort: DEMO_LOCATIONS[(work.id * 7 + nummer * 3) % DEMO_LOCATIONS.length]!,
      missing_since: null,
      created_at: at,
      updated_at: at,
    };
  });
}
