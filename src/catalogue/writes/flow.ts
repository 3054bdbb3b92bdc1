// The one write flow of the catalogue's resources (persons, works; docs/methods.md, ADR 0021): POST to
// the collection, PUT, PATCH and DELETE of one resource. A resource passes in only what differs — its
// store, paths, representation, how it reads a body and shows its form, and which store errors
// are its own field problems — so the order of checks, the compare-and-set and the lock are the
// same for every resource.
//
// A resource that exists exactly as long as another one (a person's life dates, ADR 0026) has
// PUT alone (`replaceMethod`): the same flow, where a free slug is 404 instead of a creation.
//
// Order: 403 (not staff) → 404/410/308 (target) → preconditions (412/428) → fields (422) → write.
// PATCH (ADR 0027) is PUT of the current state with the merge patch applied: the same checks,
// the same validation of the whole result, the same compare-and-set.
// Locking (ADR 0023, 0104): each handler runs everything after the staff check — every read the
// write depends on, and the write — under the process's lock of what it writes (the catalogue,
// or for `lockEach` resources one item); correctness across processes comes from the database
// (compare-and-set on the row, UNIQUE slugs, foreign keys).
import type { Handler, Outcome, Representation, RequestContext } from '../../http/resource/types.ts';
import { applyMergePatch, parseMediaType, unsupportedPatch } from '../../http/body/index.ts';
import type { Fields } from '../../http/body/index.ts';
import type { WriteExpectation, Finder } from '../shared/index.ts';
import { gone, notFound, type HttpError } from '../shared/index.ts';
import { formFlow, hasBody, requireStaff, staffOnly } from './access.ts';
import { againWhenChanged } from './changed.ts';
import { enteredValues, type FormState } from './form-html.ts';
import { holding, type LockClaim } from './lock.ts';
import { invalidOutcome, writtenOutcome, type AnyRepresentation } from './outcomes.ts';
import type { WriteProblem } from './problems.ts';
import { conflictOf, writeTarget } from './target.ts';

/** What every stored resource carries: the flow addresses, links and compare-and-sets by these. */
export interface Stored {
  readonly id: number;
  readonly slug: string;
  readonly updatedAt: Date;
}

/** A store whose resources of type T can be replaced from input I. */
export interface ReplaceableStore<T, I> extends Finder<T> {
  /** null: no live resource with that id. A lost compare-and-set throws ChangedMeanwhileError. */
  replace(id: number, input: I, expect?: WriteExpectation): Promise<T | null>;
}

/** A store that can write resources of type T from input I (I holds no slug). */
export interface WritableStore<T, I> extends ReplaceableStore<T, I> {
  /** Creates with the given slug (ConflictError when taken), or one generated from the input. */
  create(input: I | (I & { readonly slug: string })): Promise<T>;
  delete(id: number, expect?: WriteExpectation): Promise<boolean>;
}

/** A body read into store input, or every problem with it. */
export type InputRead<I> =
  { readonly ok: true; readonly input: I } | { readonly ok: false; readonly problems: WriteProblem[] };

/** The form page shown again (status 422) to a browser whose form had problems. */
export interface FormPageModel<T> {
  /** The resource being edited, or null for "new". */
  readonly current: T | null;
  /** The current representation's version for the form's `_version`, null for "new". */
  readonly version: string | null;
  readonly state: FormState;
  readonly canonicalPath: string;
}

/** What differs between the catalogue's resources that PUT replaces. */
export interface ReplaceableResource<T extends Stored, I> {
  readonly store: ReplaceableStore<T, I>;
  /** The resource's path by slug; a moved slug's write is redirected (308) to it. */
  readonly pathOf: (slug: string) => string;
  readonly representationOf: (found: T) => AnyRepresentation;
  /**
   * Reads and checks the body (it may look up referenced resources). `current`: the resource as
   * the write read it before (null for a create), whose references need no second lookup.
   */
  readonly readInput: (ctx: RequestContext, current: T | null) => Promise<InputRead<I>>;
  /** The form's field names, whose entered values the 422 form page shows again. */
  readonly fieldNames: readonly string[];
  readonly formPage: (page: FormPageModel<T>) => AnyRepresentation;
  /**
   * A store error of a create, replace or delete that is the client's problem (a field → 422, a
   * delete refused → 409), else undefined.
   */
  readonly refusal?: (error: unknown) => HttpError | undefined;
  /**
   * true: a write of one of these holds the catalogue shared and only its own item (or, for a
   * POST, the collection's creations) exclusively, so writes of different items run side by
   * side (ADR 0104). Only for a resource whose writes change no other resource's input (a work:
   * its persons are only read). Else the whole catalogue, exclusively (ADR 0023).
   */
  readonly lockEach?: boolean;
}

/** What differs between the catalogue's writable resources (POST, PUT, DELETE). */
export interface WritableResource<T extends Stored, I> extends ReplaceableResource<T, I> {
  readonly store: WritableStore<T, I>;
  /** The collection's path (`/personen`): POST goes there, a form DELETE returns there. */
  readonly collection: string;
}

export interface WriteMethods {
  readonly POST: Handler;
  readonly PUT: Handler;
  readonly PATCH: Handler;
  readonly DELETE: Handler;
}

export function writeMethods<T extends Stored, I>(resource: WritableResource<T, I>): WriteMethods {
  const creation: Creation<T, I> = {
    create: (input, slug) => resource.store.create({ ...input, slug }),
    collection: resource.collection,
  };
  return {
    POST: postHandler(resource),
    PUT: putHandler(resource, creation),
    PATCH: patchHandler(resource),
    DELETE: deleteHandler(resource),
  };
}

/** PUT alone, for a resource that is never created or deleted by itself: a free slug is 404. */
export function replaceMethod<T extends Stored, I>(resource: ReplaceableResource<T, I>): Handler {
  return putHandler(resource);
}

/** Some of the write methods: POST belongs to the collection's resource, PUT and DELETE to the item's. */
export function pickWriteMethods<K extends keyof WriteMethods>(
  methods: WriteMethods,
  ...names: K[]
): Pick<WriteMethods, K> {
  return Object.fromEntries(names.map((name) => [name, methods[name]])) as Pick<WriteMethods, K>;
}

const CATALOGUE = 'catalogue';
const WHOLE_CATALOGUE: readonly LockClaim[] = [{ key: CATALOGUE, mode: 'exclusive' }];

/** What a write holds in this process (ADR 0023, 0104): the catalogue, or it shared and one item. */
function claimsOf<T extends Stored, I>(resource: ReplaceableResource<T, I>, ctx: RequestContext) {
  if (!resource.lockEach) return WHOLE_CATALOGUE;
  const slug = ctx.query.get('slug');
  const id = ctx.query.get('id');
  // One item by its URL; a POST (neither) by the collection's creations, which pick slugs.
  const item = slug !== null ? resource.pathOf(slug) : `${resource.pathOf('')}#${id ?? 'new'}`;
  return [
    { key: CATALOGUE, mode: 'shared' },
    { key: item, mode: 'exclusive' },
  ] satisfies LockClaim[];
}

/** Runs the flow of one write: staff only, then the rest under the lock of what it writes. */
function staffWrite<T extends Stored, I>(
  resource: ReplaceableResource<T, I>,
  flow: (ctx: RequestContext) => Promise<Outcome>,
): Handler {
  return staffOnly(async (ctx) => {
    requireStaff(ctx);
    return holding(claimsOf(resource, ctx), () => flow(ctx));
  });
}

/** A store error of a write: the resource's own 422, a taken slug (only where the client chose it) 409, else as is. */
function writeFailed<T extends Stored, I>(resource: ReplaceableResource<T, I>, slugChosen: boolean) {
  return (error: unknown): never => {
    const refused = resource.refusal?.(error);
    if (refused) throw refused;
    if (slugChosen) conflictOf(error);
    throw error;
  };
}

/** 422: the form again for browsers, problem details (`errors`) for everyone else. */
function invalid<T extends Stored, I>(
  resource: ReplaceableResource<T, I>,
  ctx: RequestContext,
  problems: WriteProblem[],
  current: T | null,
  /** Where the form page of a resource not yet created stands (its collection). */
  newPath: string,
): Outcome {
  return invalidOutcome(ctx, problems, () =>
    resource.formPage({
      current,
      version: current ? ctx.versionOf(resource.representationOf(current)) : null,
      state: { values: enteredValues(ctx.body, resource.fieldNames), problems },
      canonicalPath: current ? resource.pathOf(current.slug) : newPath,
    }),
  );
}

function written<T extends Stored, I>(
  resource: ReplaceableResource<T, I>,
  ctx: RequestContext,
  found: T,
  created: boolean,
): Outcome {
  return writtenOutcome(ctx, resource.pathOf(found.slug), resource.representationOf(found), created);
}

/** POST to the collection: a new resource with a slug generated from its fields. */
function postHandler<T extends Stored, I>(resource: WritableResource<T, I>): Handler {
  // Run again like PUT when the database rolled the create back (deadlock; a create has no
  // compare-and-set to lose).
  return staffWrite(resource, (ctx) =>
    againWhenChanged(async (): Promise<Outcome> => {
      const read = await resource.readInput(ctx, null);
      if (!read.ok) return invalid(resource, ctx, read.problems, null, resource.collection);
      const created = await resource.store.create(read.input).catch(writeFailed(resource, false));
      return written(resource, ctx, created, true);
    }),
  );
}

/** How PUT creates a resource at a free slug, for resources that can be created. */
interface Creation<T, I> {
  readonly create: (input: I, slug: string) => Promise<T>;
  readonly collection: string;
}

/** PUT of one resource: replaces it (compare-and-set), or creates it at a free slug (404 without `creation`). */
function putHandler<T extends Stored, I>(
  resource: ReplaceableResource<T, I>,
  creation?: Creation<T, I>,
): Handler {
  return staffWrite(resource, (ctx) =>
    againWhenChanged(async (): Promise<Outcome> => {
      const target = await writeTarget(resource.store, ctx, resource.pathOf);
      if ('redirect' in target) return target.redirect;
      if ('free' in target && !creation) throw notFound();
      const current = 'found' in target ? target.found : null;
      // Before anything is written: a stale If-Match or `_version` → 412, none when required → 428.
      ctx.checkPreconditions(current ? resource.representationOf(current) : null);
      const read = await resource.readInput(ctx, current);
      if (!read.ok) return invalid(resource, ctx, read.problems, current, creation?.collection ?? '/');
      if (current) {
        const replaced = await resource.store
          .replace(current.id, read.input, { expectedUpdatedAt: current.updatedAt })
          .catch(writeFailed(resource, false));
        if (!replaced) throw gone();
        return written(resource, ctx, replaced, false);
      }
      const slug = 'free' in target ? target.free : '';
      if (!creation) throw notFound();
      const created = await creation.create(read.input, slug).catch(writeFailed(resource, true));
      return written(resource, ctx, created, true);
    }),
  );
}

/** The JSON representation of `found`, which a JSON PUT takes back unchanged. */
function jsonOf<T extends Stored, I>(
  resource: ReplaceableResource<T, I>,
  found: T,
  ctx: RequestContext,
): Fields {
  const rep = resource.representationOf(found) as Representation<unknown>;
  const value = rep.view.json(rep.model, { ...ctx, format: 'json' }) as Fields;
  // Through JSON text: exactly what a client would have received and sent back.
  return JSON.parse(JSON.stringify(value)) as Fields;
}

/**
 * PATCH of one resource (RFC 5789) with a JSON Merge Patch (RFC 7396): applied to the current
 * state, the result goes through PUT's validation (422 for an invalid result, nothing written)
 * and compare-and-set. A resource that does not exist is 404: PATCH changes, never creates.
 */
function patchHandler<T extends Stored, I>(resource: ReplaceableResource<T, I>): Handler {
  return staffWrite(resource, (ctx) =>
    againWhenChanged(async (): Promise<Outcome> => {
      // A PATCH without a body reaches no parser: the same 415 as one of the wrong type.
      if (ctx.body === undefined || ctx.body === null) throw unsupportedPatch(parseMediaType(undefined));
      const target = await writeTarget(resource.store, ctx, resource.pathOf);
      if ('redirect' in target) return target.redirect;
      if (!('found' in target)) throw notFound();
      const current = target.found;
      ctx.checkPreconditions(resource.representationOf(current));
      // The merge patch applies to the JSON representation, which a JSON PUT takes back as it is.
      const base = jsonOf(resource, current, ctx);
      // The patch is an object (the body parser refuses anything else), so the result is one.
      const patched: RequestContext = {
        ...ctx,
        body: applyMergePatch(base, ctx.body as Fields),
        bodyType: 'json',
      };
      const read = await resource.readInput(patched, current);
      if (!read.ok) return invalid(resource, patched, read.problems, current, resource.pathOf(current.slug));
      const replaced = await resource.store
        .replace(current.id, read.input, { expectedUpdatedAt: current.updatedAt })
        .catch(writeFailed(resource, false));
      if (!replaced) throw gone();
      return written(resource, ctx, replaced, false);
    }),
  );
}

/** DELETE of one resource: 303 to the collection after a form, else 204. */
function deleteHandler<T extends Stored, I>(resource: WritableResource<T, I>): Handler {
  return staffWrite(resource, (ctx) =>
    againWhenChanged(async (): Promise<Outcome> => {
      const target = await writeTarget(resource.store, ctx, resource.pathOf);
      if ('redirect' in target) return target.redirect;
      if (!('found' in target)) throw notFound();
      const current = target.found;
      ctx.checkPreconditions(resource.representationOf(current));
      // Deletes only the row the preconditions were checked against (compare-and-set); a store
      // that refuses (a person with open loans, ADR 0061) is answered by the resource's refusal.
      const deleted = await resource.store
        .delete(current.id, { expectedUpdatedAt: current.updatedAt })
        .catch(writeFailed(resource, false));
      if (!deleted) throw gone();
      // A form DELETE (POST with `_method`) has a body; an API DELETE usually has none.
      return formFlow(ctx) && hasBody(ctx)
        ? { type: 'redirect', status: 303, path: resource.collection }
        : { type: 'empty', status: 204 };
    }),
  );
}
