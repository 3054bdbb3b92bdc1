// Resumption tokens (ADR 0081): the whole state of a list harvest, kept by the harvester, none
// by the server. A list is walked by keyset on (datestamp, id) — the last record sent is the
// position — within the range fixed at the first page: `from` as asked, `until` as asked or
// else the end of the first page's second. A write between pages moves a work past that
// bound (its new stamp is later), so no record is skipped and none is sent twice in one
// harvest; the next incremental harvest, `from` this one's responseDate, picks it up. So a
// token never expires: it names no snapshot, only a position.
export const LIST_VERBS = ['ListIdentifiers', 'ListRecords'] as const;
export type ListVerb = (typeof LIST_VERBS)[number];

export interface ListPosition {
  readonly verb: ListVerb;
  readonly metadataPrefix: string;
  /** Inclusive lower bound (stored-stamp text); null: from the earliest. */
  readonly from: string | null;
  /** Exclusive upper bound (stored-stamp text). */
  readonly until: string;
  /** The last record sent: its stored stamp and id. */
  readonly after: { readonly stamp: string; readonly id: number };
  /** How many records were sent before this page (the token's `cursor`). */
  readonly cursor: number;
  /** The list's length as counted at the first page (the token's `completeListSize`). */
  readonly total: number;
}

const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KEYS = ['v', 'm', 'f', 'u', 's', 'i', 'c', 'n'];
const METADATA_PREFIX = /^[A-Za-z0-9\-_.!~*'()]{1,64}$/;

const isStamp = (v: unknown): v is string => typeof v === 'string' && STAMP.test(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isListVerb = (v: unknown): v is ListVerb => (LIST_VERBS as readonly unknown[]).includes(v);

export function encodeToken(p: ListPosition): string {
  const body = {
    v: p.verb,
    m: p.metadataPrefix,
    f: p.from,
    u: p.until,
    s: p.after.stamp,
    i: p.after.id,
    c: p.cursor,
    n: p.total,
  };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The position a token names, or null when it is not one this server issued (badResumptionToken). */
export function decodeToken(token: string): ListPosition | null {
  if (token.length > 1000 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const t = parsed as Record<string, unknown>;
  if (Object.keys(t).length !== KEYS.length || !KEYS.every((k) => k in t)) return null;
  if (!isListVerb(t.v) || typeof t.m !== 'string' || !METADATA_PREFIX.test(t.m)) return null;
  if (!(t.f === null || isStamp(t.f)) || !isStamp(t.u) || !isStamp(t.s)) return null;
  if (!isCount(t.i) || !isCount(t.c) || !isCount(t.n)) return null;
  return {
    verb: t.v,
    metadataPrefix: t.m,
    from: t.f,
    until: t.u,
    after: { stamp: t.s, id: t.i },
    cursor: t.c,
    total: t.n,
  };
}
