// The records of an import or export file (docs/decisions/0064-import-and-export.md): one
// person, work, copy or account each, named by the representation's German field names and
// keyed by external id or slug (persons, works; the external id first: migration 0012), by
// work slug and number (copies) or by username (accounts). A person or work with an external id
// may leave out its slug: the import generates one the first time; where the file names it (a
// work's persons, a copy's work) it is then written `extern:ID` (EXTERN), which no slug can be.
// Both formats (JSON Lines, CSV) read into the same plain object, which `checkRecord` turns into
// a typed record or a reason; the store-side checks (slugs taken, persons unknown) come later.
import { isValidSlug } from '../slugs.ts';
import { NAME_MAX, IMAGE_MAX } from '../persons/index.ts';
import { TITLE_MAX, YEAR_MIN, YEAR_MAX, COPIES_MAX, PERSONS_MAX } from '../works/index.ts';
import type { Role } from '../tables.ts';
import { isValidUsername, cleanCardNumber } from '../accounts/index.ts';

export interface PersonRecord {
  readonly type: 'person';
  /** Null only with an external id: a new person gets a generated slug. */
  readonly slug: string | null;
  /** Another system's id; matched before the slug. Null: none said (a stored one is kept). */
  readonly externeId: string | null;
  readonly vorname: string;
  readonly nachname: string;
  readonly image: string | null;
  readonly geboren: number | null;
  readonly gestorben: number | null;
}

export interface WorkRecord {
  readonly type: 'work';
  /** Null only with an external id: a new work gets a generated slug. */
  readonly slug: string | null;
  /** Another system's id; matched before the slug. Null: none said (a stored one is kept). */
  readonly externeId: string | null;
  readonly titel: string;
  readonly jahr: number | null;
  /** Null: none said (a stored one is kept). */
  readonly isbn: string | null;
  /**
   * Copies to make for a new work, or the number to add or withdraw to for a known one (as a
   * POST or PUT of the work does); null: the copies are left to copy records (export writes null).
   */
  readonly exemplare: number | null;
  /** Slugs (or `extern:ID`) of the work's persons, first author first. */
  readonly personen: readonly string[];
}

export interface CopyRecord {
  readonly type: 'copy';
  /** Slug (or `extern:ID`) of the copy's work. */
  readonly werk: string;
  readonly nummer: number;
  readonly signatur: string;
  readonly barcode: string;
  readonly standort: string;
  /** ISO time since when the copy is missing, or null. */
  readonly fehltSeit: string | null;
  /** Code of the copy's item type (ADR 0084); null or absent: a new copy is `buch`, an existing one keeps its type. */
  readonly medientyp?: string | null;
}

/** An account without its password: imported accounts cannot log in until one is set. */
export interface AccountRecord {
  readonly type: 'account';
  readonly username: string;
  /** Slug of the account's person. */
  readonly person: string;
  readonly rolle: Role;
  /** Library card number (ADR 0082); absent: a new account gets the default, a known one keeps its own. */
  readonly ausweis?: string;
}

export type TransferRecord = PersonRecord | WorkRecord | CopyRecord | AccountRecord;
export type RecordType = TransferRecord['type'];

/** Every field of every type, in the order records are written (and CSV's columns). */
export const FIELDS: Readonly<Record<RecordType, readonly string[]>> = {
  person: ['slug', 'externeId', 'vorname', 'nachname', 'image', 'geboren', 'gestorben'],
  work: ['slug', 'externeId', 'titel', 'jahr', 'isbn', 'exemplare', 'personen'],
  copy: ['werk', 'nummer', 'signatur', 'barcode', 'standort', 'fehltSeit', 'medientyp'],
  account: ['username', 'person', 'rolle', 'ausweis'],
};

export const TEXT_MAX = 200;
/** How a file names a person or work by external id where a slug would stand. */
export const EXTERN = 'extern:';
const ISBN = /^(?:\d{9}[\dX]|\d{13})$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

class Reason extends Error {}

function text(o: Record<string, unknown>, name: string, max: number): string {
  const v = o[name];
  if (typeof v !== 'string' || v.trim() === '') throw new Reason(`${name}: required text`);
  if (v.length > max) throw new Reason(`${name}: longer than ${max} characters`);
  if (CONTROL.test(v)) throw new Reason(`${name}: contains control characters`);
  return v;
}

function optionalText(o: Record<string, unknown>, name: string, max: number): string | null {
  return o[name] === undefined || o[name] === null ? null : text(o, name, max);
}

function int(o: Record<string, unknown>, name: string, min: number, max: number): number | null {
  const v = o[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
    throw new Reason(`${name}: must be a whole number from ${min} to ${max}`);
  return v;
}

function slug(o: Record<string, unknown>, name: string): string {
  const v = o[name];
  if (typeof v !== 'string' || !isValidSlug(v)) throw new Reason(`${name}: not a valid slug`);
  return v;
}

/** A slug, or `extern:ID` naming a person or work by its external id. */
function reference(o: Record<string, unknown>, name: string): string {
  const v = o[name];
  if (typeof v === 'string' && v.startsWith(EXTERN)) {
    text({ [name]: v.slice(EXTERN.length) }, name, TEXT_MAX);
    return v;
  }
  return slug(o, name);
}

/** The slug and external id of a person or work: at least one of them. */
function keys(o: Record<string, unknown>): { slug: string | null; externeId: string | null } {
  const externeId = optionalText(o, 'externeId', TEXT_MAX);
  if (externeId !== null && externeId.trim() !== externeId)
    throw new Reason('externeId: starts or ends with white space');
  // CSV joins a work's persons with | (csv.ts), so an id named there must not hold one.
  if (externeId !== null && externeId.includes('|')) throw new Reason('externeId: contains |');
  if (externeId === null || (o.slug !== undefined && o.slug !== null))
    return { slug: slug(o, 'slug'), externeId };
  return { slug: null, externeId };
}

/** An ISBN-10 or -13, hyphens and spaces left out (stored so). */
function isbn(o: Record<string, unknown>): string | null {
  const v = optionalText(o, 'isbn', 30);
  if (v === null) return null;
  const digits = v.replace(/[-\s]/g, '').toUpperCase();
  if (!ISBN.test(digits)) throw new Reason('isbn: must be 10 or 13 digits (ISBN-10 may end in X)');
  return digits;
}

/** The stored form of a portrait: a path under the base or an http(s) URL (as persons' PUT stores it). */
function image(o: Record<string, unknown>): string | null {
  const v = optionalText(o, 'image', IMAGE_MAX);
  if (v === null) return null;
  if (/\s/.test(v)) throw new Reason('image: contains white space');
  if (v.startsWith('/') && !v.startsWith('//')) return v;
  if (/^https?:\/\/[^/]/i.test(v) && URL.canParse(v)) return v;
  throw new Reason('image: must be an http(s) URL or a path starting with /');
}

function person(o: Record<string, unknown>): PersonRecord {
  const geboren = int(o, 'geboren', YEAR_MIN, YEAR_MAX);
  const gestorben = int(o, 'gestorben', YEAR_MIN, YEAR_MAX);
  if (geboren !== null && gestorben !== null && gestorben < geboren)
    throw new Reason('gestorben: before geboren');
  return {
    type: 'person',
    ...keys(o),
    vorname: text(o, 'vorname', NAME_MAX),
    nachname: text(o, 'nachname', NAME_MAX),
    image: image(o),
    geboren,
    gestorben,
  };
}

function work(o: Record<string, unknown>): WorkRecord {
  const personen = o.personen ?? [];
  if (!Array.isArray(personen)) throw new Reason('personen: must be a list of person slugs');
  if (personen.length > PERSONS_MAX) throw new Reason(`personen: more than ${PERSONS_MAX}`);
  const slugs = personen.map((_, i) => reference(personen as unknown as Record<string, unknown>, String(i)));
  if (new Set(slugs).size !== slugs.length) throw new Reason('personen: a person is named twice');
  return {
    type: 'work',
    ...keys(o),
    titel: text(o, 'titel', TITLE_MAX),
    jahr: int(o, 'jahr', YEAR_MIN, YEAR_MAX),
    isbn: isbn(o),
    exemplare: int(o, 'exemplare', 0, COPIES_MAX),
    personen: slugs,
  };
}

function copy(o: Record<string, unknown>): CopyRecord {
  const nummer = int(o, 'nummer', 1, COPIES_MAX);
  if (nummer === null) throw new Reason('nummer: required');
  const fehltSeit = optionalText(o, 'fehltSeit', 30);
  if (fehltSeit !== null && !(ISO_TIME.test(fehltSeit) && Number.isFinite(Date.parse(fehltSeit))))
    throw new Reason('fehltSeit: must be a UTC time like 2024-05-01T10:00:00.000Z');
  return {
    type: 'copy',
    werk: reference(o, 'werk'),
    nummer,
    signatur: text(o, 'signatur', TEXT_MAX),
    barcode: text(o, 'barcode', TEXT_MAX),
    standort: text(o, 'standort', TEXT_MAX),
    fehltSeit,
    medientyp: optionalText(o, 'medientyp', TEXT_MAX),
  };
}

function account(o: Record<string, unknown>): AccountRecord {
  const username = o.username;
  if (typeof username !== 'string' || !isValidUsername(username))
    throw new Reason('username: 1–40 of a-z 0-9 . _ -, starting with a letter or digit');
  const rolle = o.rolle ?? 'member';
  if (rolle !== 'member' && rolle !== 'staff') throw new Reason('rolle: member or staff');
  const ausweis = o.ausweis ?? null;
  if (ausweis !== null && ausweis !== '' && cleanCardNumber(ausweis) !== ausweis)
    throw new Reason('ausweis: 1–32 printable characters without spaces');
  return {
    type: 'account',
    username,
    person: slug(o, 'person'),
    rolle,
    ...(typeof ausweis === 'string' && ausweis !== '' && { ausweis }),
  };
}

const READERS = { person, work, copy, account } as const;

/** A record, or the reason the object is none. Fields not of its type are refused (typos). */
export function checkRecord(value: unknown): TransferRecord | { readonly reason: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { reason: 'not an object' };
  const o = value as Record<string, unknown>;
  const type = o.type;
  if (typeof type !== 'string' || !Object.hasOwn(READERS, type))
    return { reason: 'type: must be person, work, copy or account' };
  const fields = FIELDS[type as RecordType];
  const unknown = Object.keys(o).filter((k) => k !== 'type' && !fields.includes(k));
  if (unknown.length > 0)
    return { reason: `unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}` };
  try {
    return READERS[type as RecordType](o);
  } catch (error) {
    if (error instanceof Reason) return { reason: error.message };
    throw error;
  }
}
