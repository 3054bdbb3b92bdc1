// Test helpers: in-memory person and work stores that also write, with the SQL stores' slug
// rules in small (generated slugs, renamed slug → 301, deleted → 410). Not used in production.
import { ConflictError, ForeignKeyError } from '../../storage/index.ts';
import type { Lookup, Page, Person, PersonRef, PersonSummary, Work, WorkSummary } from '../model.ts';
import type { PersonInput } from '../persons/store.ts';
import type { WorkInput } from '../works/store.ts';
import type { WritablePersonStore } from '../persons/write.ts';
import type { WritableWorkStore } from '../works/write.ts';

const slugify = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'x';

interface Table<T> {
  live: Map<number, T>;
  deleted: Set<string>;
  moved: Map<string, number>;
  nextId: number;
}

function table<T>(): Table<T> {
  return { live: new Map(), deleted: new Set(), moved: new Map(), nextId: 1 };
}

function taken<T extends { slug: string }>(t: Table<T>, slug: string, ownId?: number): boolean {
  for (const [id, r] of t.live) if (r.slug === slug && id !== ownId) return true;
  return t.deleted.has(slug) || (t.moved.has(slug) && t.moved.get(slug) !== ownId);
}

function freeSlug<T extends { slug: string }>(t: Table<T>, text: string, ownId?: number): string {
  const base = slugify(text);
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!taken(t, candidate, ownId)) return candidate;
  }
}

function lookup<T extends { slug: string }>(t: Table<T>, slug: string): Lookup<T> {
  for (const r of t.live.values()) if (r.slug === slug) return { found: r };
  if (t.deleted.has(slug)) return { gone: true };
  const id = t.moved.get(slug);
  if (id !== undefined) {
    const r = t.live.get(id);
    return r ? { movedTo: r.slug } : { gone: true };
  }
  return null;
}

function rename<T extends { slug: string }>(t: Table<T>, id: number, old: string, next: string): void {
  if (old === next) return;
  t.moved.delete(next);
  t.moved.set(old, id);
}

let tick = Date.parse('2024-06-01T00:00:00Z');
const now = () => new Date((tick += 1000));

function page<T>(items: T[]): Page<T> {
  return { items };
}

export interface FakeCatalogue {
  readonly persons: WritablePersonStore;
  readonly works: WritableWorkStore;
}

export function fakeCatalogue(): FakeCatalogue {
  const p = table<Person>();
  const w = table<Work>();
  const personRef = (id: number): PersonRef | undefined => {
    const r = p.live.get(id);
    return r && { id: r.id, slug: r.slug, vorname: r.vorname, nachname: r.nachname };
  };
  const withWorks = (r: Person): Person => ({
    ...r,
    werke: [...w.live.values()]
      .filter((work) => work.personen.some((x) => x.id === r.id))
      .map(({ id, slug, titel }) => ({ id, slug, titel })),
  });
  const withPersons = (r: Work): Work => ({
    ...r,
    personen: r.personen.map((x) => personRef(x.id)).filter((x): x is PersonRef => x !== undefined),
  });
  const refsOf = (ids: readonly number[] = []): PersonRef[] =>
    ids.map((id) => {
      const ref = personRef(id);
      if (!ref) throw new ForeignKeyError(`unknown person id ${id}`);
      return ref;
    });
  const mapLookup = <T>(l: Lookup<T>, f: (r: T) => T): Lookup<T> =>
    l && 'found' in l ? { found: f(l.found) } : l;

  const persons: WritablePersonStore = {
    async bySlug(slug) {
      return mapLookup(lookup(p, slug), withWorks);
    },
    async byId(id) {
      const r = p.live.get(id);
      return r ? { found: withWorks(r) } : null;
    },
    async list(): Promise<Page<PersonSummary>> {
      return page([...p.live.values()].map((r) => ({ ...r, werkAnzahl: withWorks(r).werke.length })));
    },
    async create(input: PersonInput) {
      if (input.slug !== undefined && taken(p, input.slug)) throw new ConflictError('taken', 'persons.slug');
      const slug = input.slug ?? freeSlug(p, `${input.vorname} ${input.nachname}`);
      const r: Person = {
        id: p.nextId++,
        slug,
        vorname: input.vorname,
        nachname: input.nachname,
        image: input.image ?? null,
        geboren: input.geboren ?? null,
        gestorben: input.gestorben ?? null,
        username: null,
        werke: [],
        updatedAt: now(),
      };
      p.live.set(r.id, r);
      return withWorks(r);
    },
    async replace(id, input) {
      const current = p.live.get(id);
      if (!current) return null;
      const renamed = current.vorname !== input.vorname || current.nachname !== input.nachname;
      const slug = renamed ? freeSlug(p, `${input.vorname} ${input.nachname}`, id) : current.slug;
      rename(p, id, current.slug, slug);
      const r: Person = {
        ...current,
        slug,
        vorname: input.vorname,
        nachname: input.nachname,
        image: input.image ?? null,
        geboren: input.geboren ?? null,
        gestorben: input.gestorben ?? null,
        updatedAt: now(),
      };
      p.live.set(id, r);
      return withWorks(r);
    },
    async delete(id) {
      const r = p.live.get(id);
      if (!r) return false;
      p.live.delete(id);
      p.deleted.add(r.slug);
      return true;
    },
  };

  const works: WritableWorkStore = {
    async bySlug(slug) {
      return mapLookup(lookup(w, slug), withPersons);
    },
    async byId(id) {
      const r = w.live.get(id);
      return r ? { found: withPersons(r) } : null;
    },
    async list(): Promise<Page<WorkSummary>> {
      return page([...w.live.values()].map(withPersons));
    },
    async create(input: WorkInput) {
      if (input.slug !== undefined && taken(w, input.slug)) throw new ConflictError('taken', 'works.slug');
      const r: Work = {
        id: w.nextId++,
        slug: input.slug ?? freeSlug(w, input.titel),
        titel: input.titel,
        jahr: input.jahr ?? null,
        exemplare: input.exemplare ?? 1,
        verfuegbar: input.exemplare ?? 1,
        personen: refsOf(input.personIds),
        updatedAt: now(),
      };
      w.live.set(r.id, r);
      return r;
    },
    async replace(id, input) {
      const current = w.live.get(id);
      if (!current) return null;
      const slug = current.titel !== input.titel ? freeSlug(w, input.titel, id) : current.slug;
      rename(w, id, current.slug, slug);
      const r: Work = {
        ...current,
        slug,
        titel: input.titel,
        jahr: input.jahr ?? null,
        exemplare: input.exemplare ?? 1,
        verfuegbar: input.exemplare ?? 1,
        personen: refsOf(input.personIds),
        updatedAt: now(),
      };
      w.live.set(id, r);
      return r;
    },
    async delete(id) {
      const r = w.live.get(id);
      if (!r) return false;
      w.live.delete(id);
      w.deleted.add(r.slug);
      return true;
    },
  };
  return { persons, works };
}
