// `/exemplare?werk=` (a work's copies; GET for everyone, POST for staff) and `/exemplar?werk=&slug=`
// (one copy by its number; GET for everyone, PUT/PATCH/DELETE for staff), reached from
// `/werke/{slug}/exemplare[/{nummer}]` by the rewrite table. Writes go through the catalogue's
// one write flow (writes/flow.ts, ADR 0023) with the work's copies as the store, so the checks,
// preconditions (If-Match, 428) and compare-and-set are those of persons and works.
import type { Handler, Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import { ConflictError } from '../../storage/index.ts';
import { subject } from '../changes.ts';
import type { Work, WorkStore } from '../model.ts';
import { HttpError, notFound, resolve, copiesPath, copyPath } from '../shared/index.ts';
import { isValidSlug } from '../slugs.ts';
import { requireStaff, writeMethods, type WriteMethods, staffOnly } from '../writes/index.ts';
import { CopiesOnLoanError } from './count.ts';
import { copiesRepresentation, type CopiesModel } from './copies-view.ts';
import { copyFormView, type CopyFormModel } from './forms.ts';
import { copyRepresentation } from './copy-view.ts';
import { COPY_FIELD_NAMES, readCopy } from './input.ts';
import type { Copy, CopyInput } from './model.ts';
import type { CopyStore } from './store.ts';
import { routeOf } from '../registry/index.ts';

const NUMMER = /^[1-9]\d{0,8}$/;

/** The work the URL names: found, or the outcome (301/308 to its new slug; 404/410 thrown). */
async function workOf(
  works: WorkStore,
  ctx: RequestContext,
  pathOf: (slug: string) => string,
  moved: 301 | 308,
): Promise<{ found: Work } | { redirect: Outcome }> {
  const slug = ctx.query.get('werk');
  if (slug === null || !isValidSlug(slug)) throw notFound();
  return resolve(await works.bySlug(slug), pathOf, moved);
}

function refusal(error: unknown): HttpError | undefined {
  if (error instanceof CopiesOnLoanError)
    return new HttpError('SHELFMARK_COPY_ON_LOAN', {
      detail: 'This copy is lent out or kept for a hold; it is withdrawn once it is back.',
      localDetail: {
        de: 'Dieses Exemplar ist ausgeliehen oder vorgemerkt; es kann erst ausgeschieden werden, wenn es zurück ist.',
        en: 'This copy is lent out or kept for a hold; it can be withdrawn once it is back.',
      },
    });
  if (error instanceof ConflictError)
    return new HttpError('SHELFMARK_CONFLICT', {
      detail: 'Another copy has this barcode (or this number).',
      localDetail: {
        de: 'Ein anderes Exemplar hat diesen Barcode (oder diese Nummer).',
        en: 'Another copy has this barcode (or this number).',
      },
    });
  return undefined;
}

function methodsFor(store: CopyStore, work: Work): WriteMethods {
  return writeMethods<Copy, CopyInput>({
    store: store.ofWork(work.id),
    collection: copiesPath(work.slug),
    pathOf: (nummer) => copyPath(work.slug, Number(nummer)),
    representationOf: copyRepresentation,
    readInput: async (ctx) => readCopy(ctx.body),
    fieldNames: COPY_FIELD_NAMES,
    formPage: ({ current, version, state, canonicalPath }) => {
      const model: CopyFormModel = { werk: work, copy: current, version, state };
      return { model, view: copyFormView, canonicalPath };
    },
    refusal,
  });
}

/** A write: staff first (403 before anything is looked up), then the work, then the flow. */
function write(
  store: CopyStore,
  works: WorkStore,
  method: keyof WriteMethods,
  pathOf: (ctx: RequestContext) => (slug: string) => string,
): Handler {
  return staffOnly(async (ctx) => {
    requireStaff(ctx);
    const work = await workOf(works, ctx, pathOf(ctx), 308);
    if ('redirect' in work) return work.redirect;
    return methodsFor(store, work.found)[method](ctx);
  });
}

export function copiesResource(store: CopyStore, works: WorkStore): ResourceDefinition {
  return {
    name: 'copies',
    cacheable: true,
    // The work's copies with their status (its loans and holds); item types move the counter (ADR 0088).
    dependsOn: (m: CopiesModel) => [subject.work(m.werk.id)],
    path: routeOf('Copies'),
    methods: {
      GET: async (ctx) => {
        const work = await workOf(works, ctx, copiesPath, 301);
        if ('redirect' in work) return work.redirect;
        const w = work.found;
        const items = await store.list(w.id);
        const stamps = [w.updatedAt, ...items.map((c) => c.changedAt)].map((d) => d.getTime());
        const changedAt = new Date(Math.max(...stamps));
        return {
          type: 'representation',
          representation: copiesRepresentation({ werk: w, items, changedAt }),
        };
      },
      POST: write(store, works, 'POST', () => copiesPath),
    },
  };
}

export function copyResource(store: CopyStore, works: WorkStore): ResourceDefinition {
  const nummerOf = (ctx: RequestContext): string => {
    const nummer = ctx.query.get('slug');
    if (nummer === null || !NUMMER.test(nummer)) throw notFound();
    return nummer;
  };
  const movedTo = (ctx: RequestContext) => (slug: string) => copyPath(slug, Number(nummerOf(ctx)));
  return {
    name: 'copy',
    cacheable: true,
    dependsOn: (c: Copy) => [subject.work(c.werk.id)],
    path: routeOf('Copy'),
    methods: {
      GET: async (ctx) => {
        const nummer = nummerOf(ctx);
        const work = await workOf(works, ctx, movedTo(ctx), 301);
        if ('redirect' in work) return work.redirect;
        const found = resolve(await store.ofWork(work.found.id).bySlug(nummer), copiesPath(work.found.slug));
        if ('redirect' in found) return found.redirect;
        return { type: 'representation', representation: copyRepresentation(found.found) };
      },
      PUT: write(store, works, 'PUT', movedTo),
      PATCH: write(store, works, 'PATCH', movedTo),
      DELETE: write(store, works, 'DELETE', movedTo),
    },
  };
}
