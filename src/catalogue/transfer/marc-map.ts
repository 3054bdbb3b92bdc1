// A MARC 21 bibliographic record as import items (ADR 0064): its authors (100, 700 $a) as
// person records, then the work (245 $a $b title, 260/264 $c year, 020 $a ISBN, 001 key).
// A work is keyed by its control number (003 in parentheses before 001 when there is one), so a
// second import of the same file finds every work again. A person is keyed by the authority id
// of its $0 when there is one, else by `name:` and its normalized name ("frisch, max"): two
// different persons of the same name and no authority id become one (stated in ADR 0064).
// Items are numbered in order (`next`); `at` tells where the record is in its file.
import type { ImportItem } from './import.ts';
import { EXTERN, checkRecord } from './records.ts';

export interface MarcRecord {
  /** 1-based position among the file's records. */
  readonly number: number;
  /** Line of the file the record starts on. */
  readonly line: number;
  readonly control: Map<string, string>;
  readonly fields: { tag: string; ind1: string; ind2: string; subfields: [string, string][] }[];
}

/** ISBD punctuation that closes a MARC subfield and is no part of the title. */
function trimTitle(s: string): string {
  return s.replace(/\s*[/:;=,.]\s*$/, '').trim();
}

/** A trailing comma, and a full stop unless it ends an initial ("Tolkien, J. R. R."). */
function trimName(s: string): string {
  const t = s.replace(/[\s,;:]+$/, '');
  return /(^|\s)\p{L}\.$/u.test(t) ? t : t.replace(/\.$/, '').trim();
}

const first = (r: MarcRecord, tags: string[], code: string) => {
  for (const f of r.fields)
    if (tags.includes(f.tag)) for (const [c, v] of f.subfields) if (c === code && v !== '') return v;
  return null;
};

/** "Nachname, Vorname" (MARC's inverted form); else the last word is the surname. */
function splitName(name: string): { vorname: string; nachname: string } {
  const comma = name.indexOf(',');
  if (comma >= 0) return { nachname: name.slice(0, comma).trim(), vorname: name.slice(comma + 1).trim() };
  const space = name.lastIndexOf(' ');
  return space < 0
    ? { nachname: name, vorname: '' }
    : { vorname: name.slice(0, space).trim(), nachname: name.slice(space + 1) };
}

export function personKey(name: string, authority: string | null): string {
  if (authority !== null) return authority;
  return 'name:' + name.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function* marcItems(r: MarcRecord, next: () => number): Generator<ImportItem> {
  const at = `record ${r.number} (line ${r.line})`;
  const bad = (reason: string): ImportItem => ({ line: next(), at, reason });
  const id = r.control.get('001');
  if (!id) return yield bad('001: no control number, the key of the work');
  const org = r.control.get('003');
  const externeId = org ? `(${org})${id}` : id;
  const a = first(r, ['245'], 'a');
  if (a === null) return yield bad('245 $a: no title');
  const b = first(r, ['245'], 'b');
  const titel = trimTitle(b === null ? trimTitle(a) : `${trimTitle(a)}: ${trimTitle(b)}`);
  const personen: string[] = [];
  for (const f of r.fields) {
    if (f.tag !== '100' && f.tag !== '700') continue;
    const raw = f.subfields.find(([c]) => c === 'a')?.[1];
    if (raw === undefined) continue;
    const name = trimName(raw);
    const authority = f.subfields.find(([c, v]) => c === '0' && v !== '')?.[1] ?? null;
    const key = personKey(name, authority);
    const checked = checkRecord({ type: 'person', externeId: key, ...splitName(name) });
    if ('reason' in checked) yield bad(`${f.tag} $a ${JSON.stringify(raw)}: ${checked.reason}`);
    else {
      yield { line: next(), at, record: checked };
      if (!personen.includes(EXTERN + key)) personen.push(EXTERN + key);
    }
  }
  const date = first(r, ['264', '260'], 'c');
  const year = date?.match(/\d{4}/)?.[0];
  const isbn = first(r, ['020'], 'a')?.match(/^[\dXx-]+/)?.[0];
  const work = {
    type: 'work',
    externeId,
    titel,
    ...(year !== undefined && { jahr: Number(year) }),
    // An ISBN that is not one (a typo, a price) is left out rather than losing the work.
    ...(isbn !== undefined && /^(\d{9}[\dX]|\d{13})$/i.test(isbn.replace(/-/g, '')) && { isbn }),
    personen,
  };
  const checked = checkRecord(work);
  yield 'reason' in checked ? bad(checked.reason) : { line: next(), at, record: checked };
}
