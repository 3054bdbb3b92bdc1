// Shelfmarks and barcodes the catalogue makes itself (new works, the demo): `Goe 12 Fa` is the
// first three letters of the first author's filing surname, a number, the title's first two
// letters; further copies of a work get a suffix (`Goe 12 Fa+2`), as migration 0010 wrote them.
import { filingName } from '../../storage/index.ts';

function capitalized(text: string, letters: number): string {
  const chars = [...text.replace(/[^\p{L}\p{N}]/gu, '')].slice(0, letters).join('');
  return chars.slice(0, 1).toUpperCase() + chars.slice(1).toLowerCase();
}

/** A shelfmark: author (or `Anon`), a number, the title's start; `nummer` > 1 adds `+nummer`. */
export function signaturFor(nachname: string | null, number: number, titel: string, nummer: number): string {
  const author = nachname === null ? '' : capitalized(filingName(nachname), 3);
  const start = capitalized(titel, 2);
  const base = [author || 'Anon', String(number), start].filter(Boolean).join(' ');
  return nummer > 1 ? `${base}+${nummer}` : base;
}

/** The barcode of a copy the catalogue makes: `SM{work id}-{nummer}` (migration 0010's shape). */
export function barcodeFor(workId: number, nummer: number): string {
  return `SM${workId}-${nummer}`;
}
