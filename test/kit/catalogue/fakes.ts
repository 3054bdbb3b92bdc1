// Test helpers: small in-memory stores and a fake RequestContext. Not used in production.
import type {
  CoreFormat,
  Format,
  Lang,
  Outcome,
  Principal,
  Representation,
  RequestContext,
  SessionControl,
} from '../../../src/http/resource/types.ts';
import { HttpError } from '../../../src/http/errors/index.ts';
import { checkPreconditions, versionOf } from '../../../src/http/app/preconditions.ts';
import type {
  Lookup,
  Page,
  PageRequest,
  Person,
  PersonStore,
  PersonSummary,
  Work,
  WorkStore,
  WorkSummary,
} from '../../../src/catalogue/model.ts';

export const BASE = 'https://library.example';
/** The CSRF token of every fake context with a user. */
export const CSRF_TOKEN = 'fake-csrf-token';

export interface FakeContextOptions {
  format?: Format;
  /** How the format was chosen (default: the Accept header). */
  formatSource?: RequestContext['formatSource'];
  lang?: Lang;
  query?: string | Record<string, string>;
  path?: string;
  /** Base path of the links, e.g. `/katalog` (default none). */
  basePath?: string;
  method?: RequestContext['method'];
  user?: Principal | null;
  body?: unknown;
  /** Default: `form` when a body is given and the client wants HTML, `json` for other bodies. */
  bodyType?: RequestContext['bodyType'];
  /** Default: CSRF_TOKEN with a user, none without. */
  csrfToken?: string | null;
  /** The If-Match header the fake request carries (checked like the layer does). */
  ifMatch?: string;
  requirePreconditions?: boolean;
  /** Default: login always fails with 401, logout does nothing. */
  session?: SessionControl;
}

/** A RequestContext that also keeps what each `checkPreconditions` call was given. */
export type FakeContext = RequestContext & { readonly preconditions: (Representation<unknown> | null)[] };

const failingSession: SessionControl = {
  async login() {
    throw new HttpError('SHELFMARK_UNAUTHENTICATED', { detail: 'Wrong user name or password.' });
  },
  async logout() {},
  async confirmPassword() {
    return false;
  },
  renew() {},
};

/** The one fake request context of the catalogue's handler and view tests. */
export function fakeContext(opts: FakeContextOptions = {}): FakeContext {
  const method = opts.method ?? 'GET';
  const base = opts.basePath ?? '';
  const preconditions: (Representation<unknown> | null)[] = [];
  const ctx: FakeContext = {
    method,
    format: opts.format ?? 'html',
    formatSource: opts.formatSource ?? 'accept',
    lang: opts.lang ?? 'de',
    query: new URLSearchParams(opts.query ?? ''),
    links: { absolute: (p) => BASE + base + p, relative: (p) => base + p },
    path: opts.path ?? '/',
    user: opts.user ?? null,
    body: opts.body,
    bodyType:
      opts.bodyType !== undefined
        ? opts.bodyType
        : opts.body === undefined
          ? null
          : (opts.format ?? 'html') === 'html'
            ? 'form'
            : 'json',
    address: '192.0.2.1',
    csrfToken: opts.csrfToken !== undefined ? opts.csrfToken : opts.user ? CSRF_TOKEN : null,
    session: opts.session ?? failingSession,
    // The layer's own precondition logic, so handler tests see real 412/428 behaviour.
    checkPreconditions(current) {
      preconditions.push(current as Representation<unknown> | null);
      const input = {
        method,
        ifMatch: opts.ifMatch,
        ifNoneMatch: undefined,
        body: opts.body,
        required: opts.requirePreconditions ?? false,
      };
      checkPreconditions(input, current, ctx);
    },
    versionOf: (representation) => versionOf(representation, ctx),
    preconditions,
  };
  return ctx;
}

const when = new Date('2024-05-01T10:00:00Z');

export const goethe: Person = {
  id: 1,
  slug: 'goethe',
  vorname: 'Johann Wolfgang',
  nachname: 'von Goethe',
  image: '/bilder/goethe.svg',
  username: 'goethe',
  werke: [{ id: 10, slug: 'faust', titel: 'Faust' }],
  isPublic: true,
  updatedAt: when,
};

export const faust: Work = {
  id: 10,
  slug: 'faust',
  titel: 'Faust',
  jahr: 1808,
  exemplare: 3,
  verfuegbar: 2,
  personen: [{ id: 1, slug: 'goethe', vorname: 'Johann Wolfgang', nachname: 'von Goethe' }],
  updatedAt: when,
};

/** Keyset paging over an array by position, with the position as the cursor. */
function pageOf<T>(all: readonly T[], req: PageRequest): Page<T> {
  let start = 0;
  if (req.after) start = Number(req.after);
  else if (req.before) start = Math.max(0, Number(req.before) - req.limit);
  const end = req.before && !req.after ? Number(req.before) : start + req.limit;
  return {
    items: all.slice(start, end),
    next: end < all.length ? String(end) : undefined,
    prev: start > 0 ? String(start) : undefined,
  };
}

interface Moves {
  readonly moved?: Record<string, string>;
  readonly gone?: readonly string[];
}

function finder<T extends { id: number; slug: string }>(records: readonly T[], moves: Moves) {
  return {
    async bySlug(slug: string): Promise<Lookup<T>> {
      if (moves.moved?.[slug]) return { movedTo: moves.moved[slug] };
      if (moves.gone?.includes(slug)) return { gone: true };
      const found = records.find((r) => r.slug === slug);
      return found ? { found } : null;
    },
    async byId(id: number): Promise<Lookup<T>> {
      const found = records.find((r) => r.id === id);
      return found ? { found } : null;
    },
  };
}

export function fakePersonStore(
  persons: readonly Person[] = [goethe],
  moves: Moves = {},
): PersonStore & { calls: PageRequest[] } {
  const calls: PageRequest[] = [];
  const find = finder(persons, moves);
  return {
    ...find,
    async idOf(ref) {
      let found = 'id' in ref ? await find.byId(ref.id) : await find.bySlug(ref.slug);
      if (found !== null && 'movedTo' in found) found = await find.bySlug(found.movedTo);
      return found !== null && 'found' in found ? found.found.id : null;
    },
    calls,
    async list(req: PageRequest, viewer: Principal | null = null): Promise<Page<PersonSummary>> {
      calls.push(req);
      const q = req.q?.toLowerCase();
      const hits = persons.filter(
        (p) =>
          (p.isPublic || viewer?.role === 'staff' || viewer?.id === p.id) &&
          (!q || `${p.vorname} ${p.nachname}`.toLowerCase().includes(q)),
      );
      const summaries = hits.map(({ id, slug, vorname, nachname, werke }) => ({
        id,
        slug,
        vorname,
        nachname,
        werkAnzahl: werke.length,
      }));
      return pageOf(summaries, req);
    },
  };
}

export function fakeWorkStore(
  works: readonly Work[] = [faust],
  moves: Moves = {},
): WorkStore & { calls: PageRequest[] } {
  const calls: PageRequest[] = [];
  return {
    ...finder(works, moves),
    calls,
    async list(req: PageRequest): Promise<Page<WorkSummary>> {
      calls.push(req);
      const q = req.q?.toLowerCase();
      const hits = works.filter((w) => !q || w.titel.toLowerCase().includes(q));
      const summaries = hits.map(({ id, slug, titel, jahr, personen }) => ({
        id,
        slug,
        titel,
        jahr,
        personen,
      }));
      return pageOf(summaries, req);
    },
  };
}

/** Renders a handler's representation in one format, as the layer would (minus declaration). */
export function render(
  outcome: Outcome,
  format: CoreFormat,
  ctx: RequestContext = fakeContext({ format }),
): string | unknown {
  if (outcome.type !== 'representation') throw new Error(`expected a representation, got ${outcome.type}`);
  const r = outcome.representation as Representation<unknown>;
  return format === 'json' ? r.view.json(r.model, ctx) : r.view[format](r.model, ctx).text;
}

export const renderText = (outcome: Outcome, format: 'html' | 'xml'): string =>
  render(outcome, format) as string;

/**
 * HTML with whitespace runs collapsed and tag ends normalised (`<br />`, `<span\n>` → `<br>`,
 * `<span>`), so tests don't depend on how prettier lays out the templates. Adjacent tags may
 * still be separated by one space: match them with ` ?`.
 */
export function squash(htmlText: string): string {
  return htmlText
    .replace(/\s+/g, ' ')
    .replace(/\s*\/?>/g, '>')
    .replace(/< /g, '<');
}
