// Turns the keys of a batch's persons or works into slugs before they are written (ADR 0064):
// a record whose external id is known takes the slug of that row (the external id wins: a
// different slug in the file does not rename it); one with a slug and a new external id is
// matched by slug (and the id stored), unless that row already has another external id; one
// with only a new external id gets a generated slug, as the stores make one (slugForNew), free
// in the database and in this batch. References written `extern:ID` (a work's persons, a copy's
// work) become the slug of the row with that id; an unknown one is left for the writer to report.
import { slugify } from '../../storage/index.ts';
import { slugForNew, slugIsFree } from '../slugs.ts';
import type { SlugKind } from '../tables.ts';
import { selectIn, type Batch, type Line } from './batch.ts';
import { EXTERN, type CopyRecord, type PersonRecord, type WorkRecord } from './records.ts';

/** A record whose slug is settled. */
export type Keyed<R extends PersonRecord | WorkRecord> = R & { readonly slug: string };

const TABLE = { person: 'persons', work: 'works' } as const;

interface Row {
  readonly slug: string;
  readonly external_id: string | null;
}

function rows(batch: Batch, kind: SlugKind, column: 'slug' | 'external_id', keys: string[]) {
  return selectIn(
    [...new Set(keys)],
    (part) =>
      batch.trx
        .selectFrom(TABLE[kind])
        .select(['slug', 'external_id'])
        .where(column, 'in', part)
        .execute() as Promise<Row[]>,
  );
}

export async function settleSlugs<R extends PersonRecord | WorkRecord>(
  batch: Batch,
  kind: SlugKind,
  lines: readonly Line<R>[],
  text: (record: R) => string,
): Promise<Line<Keyed<R>>[]> {
  const ids = lines.flatMap((l) => (l.record.externeId === null ? [] : [l.record.externeId]));
  if (ids.length === 0) return lines as Line<Keyed<R>>[];
  const slugOf = new Map((await rows(batch, kind, 'external_id', ids)).map((r) => [r.external_id!, r.slug]));
  const bySlug = lines.flatMap((l) =>
    l.record.slug !== null && l.record.externeId !== null && !slugOf.has(l.record.externeId)
      ? [l.record.slug]
      : [],
  );
  const idOfSlug = new Map((await rows(batch, kind, 'slug', bySlug)).map((r) => [r.slug, r.external_id]));
  const generated = new Set<string>();
  const out: Line<Keyed<R>>[] = [];
  for (const line of lines) {
    const r = line.record;
    const known = r.externeId === null ? undefined : slugOf.get(r.externeId);
    let slug = known ?? r.slug;
    if (known === undefined && r.slug !== null && r.externeId !== null) {
      const other = idOfSlug.get(r.slug);
      if (other !== undefined && other !== null && other !== r.externeId) {
        batch.outcomes.set(line.line, { reason: `slug ${r.slug}: has the external id ${other}` });
        continue;
      }
    }
    if (slug === null) slug = await generate(batch, kind, text(r), generated);
    // Later lines with the same id find this slug (lastPerKey then keeps the last of them).
    if (r.externeId !== null) slugOf.set(r.externeId, slug);
    out.push({ line: line.line, record: { ...r, slug } });
  }
  return out;
}

const FALLBACK = { person: 'person', work: 'werk' } as const;

async function generate(batch: Batch, kind: SlugKind, text: string, taken: Set<string>): Promise<string> {
  // The slug slugForNew makes when its base is free, found by two indexed look-ups: slugForNew's
  // own search for taken `base-N` is a LIKE the index does not serve (SQLite), a scan per record
  // that made a bulk import quadratic (20,000 records 23 s of CPU, 60,000 160 s).
  const base = slugify(text, FALLBACK[kind]);
  if (!taken.has(base) && (await slugIsFree(batch.trx, kind, base))) {
    taken.add(base);
    return base;
  }
  const first = await slugForNew(batch.trx, kind, undefined, text);
  let slug = first;
  for (let n = 2; taken.has(slug) || !(await slugIsFree(batch.trx, kind, slug)); n += 1)
    slug = `${first}-${n}`;
  taken.add(slug);
  return slug;
}

/** The slugs that `extern:ID` references stand for (unknown ones stay as written). */
async function referenced(
  batch: Batch,
  kind: SlugKind,
  refs: readonly string[],
): Promise<Map<string, string>> {
  const ids = refs.filter((s) => s.startsWith(EXTERN)).map((s) => s.slice(EXTERN.length));
  if (ids.length === 0) return new Map();
  return new Map((await rows(batch, kind, 'external_id', ids)).map((r) => [EXTERN + r.external_id, r.slug]));
}

export async function settlePersonRefs(batch: Batch, lines: Line<Keyed<WorkRecord>>[]) {
  const slugs = await referenced(
    batch,
    'person',
    lines.flatMap((l) => l.record.personen),
  );
  if (slugs.size === 0) return lines;
  return lines.map((l) => ({
    line: l.line,
    record: { ...l.record, personen: l.record.personen.map((p) => slugs.get(p) ?? p) },
  }));
}

export async function settleWorkRefs(batch: Batch, lines: Line<CopyRecord>[]) {
  const slugs = await referenced(
    batch,
    'work',
    lines.map((l) => l.record.werk),
  );
  if (slugs.size === 0) return lines;
  return lines.map((l) => ({
    line: l.line,
    record: { ...l.record, werk: slugs.get(l.record.werk) ?? l.record.werk },
  }));
}
