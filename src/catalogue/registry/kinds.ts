// The kinds of record the catalogue keeps, each declared once (ADR 0090): what one is called,
// the URL that shows one, and which of the shared mechanisms it takes part in. The unions the
// shared code is typed with (VersionedTable, ListedTable, SitemapTable, SlugKind) are derived
// from here, so a new kind is one line, and the compiler then asks for whatever it lacks.
import type { UrlId } from './urls.ts';

interface RecordKind {
  /** One record, in messages and in slug_history.kind: `person`. */
  readonly one: string;
  /** The registry URL that shows one record. */
  readonly url: UrlId;
  /** Compare-and-set on `updated_at` (shared/claim-row.ts, ADR 0021). */
  readonly versioned?: true;
  /** Readable slugs with a history of old ones (slugs.ts, slug_history). */
  readonly slugs?: true;
  /** Keyset-paged lists with a live row count (shared/keyed-list.ts, ADR 0043). */
  readonly listed?: true;
  /** Its public records are in /sitemap.xml (sitemap/source.ts, ADR 0053). */
  readonly sitemap?: true;
}

export const RECORD_KINDS = {
  persons: { one: 'person', url: 'Person', versioned: true, slugs: true, listed: true, sitemap: true },
  works: { one: 'work', url: 'Work', versioned: true, slugs: true, listed: true, sitemap: true },
  copies: { one: 'copy', url: 'Copy', versioned: true },
} as const satisfies Record<string, RecordKind>;

type Kinds = typeof RECORD_KINDS;
/** The tables of the kinds that have the flag `F`. */
type TablesWith<F extends keyof RecordKind> = {
  [T in keyof Kinds]: Kinds[T] extends Record<F, true> ? T : never;
}[keyof Kinds];

export type RecordTable = keyof Kinds;
export type VersionedTable = TablesWith<'versioned'>;
export type ListedTable = TablesWith<'listed'>;
export type SitemapTable = TablesWith<'sitemap'>;
export type SlugKind = Kinds[TablesWith<'slugs'>]['one'];

/** The tables whose kind has the flag, in declaration order. */
export function tablesWith<F extends 'versioned' | 'slugs' | 'listed' | 'sitemap'>(flag: F): TablesWith<F>[] {
  return (Object.keys(RECORD_KINDS) as RecordTable[]).filter(
    (t) => (RECORD_KINDS[t] as RecordKind)[flag] === true,
  ) as TablesWith<F>[];
}
