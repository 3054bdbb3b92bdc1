// The parts of the person and work write handlers that do not depend on the resource: the
// store check, the answers after a write (303 for browsers, 201/200 with the representation for
// API clients), the 422 form page, and DELETE (same flow for every resource).
import type { Handler, Outcome, Representation, RequestContext } from '../../http/resource/types.ts';
import { gone, notFound } from '../shared/errors.ts';
import type { Finder } from '../shared/lookup.ts';
import { formFlow, hasBody, requireStaff } from './access.ts';
import type { WriteExpectation } from '../shared/compare-and-set.ts';
import { againWhenChanged } from './changed.ts';
import { serialized } from './lock.ts';
import { validationError, type WriteProblem } from './problems.ts';
import { writeTarget } from './target.ts';

/** Any resource's representation, as Outcome and checkPreconditions take it. */
type AnyRepresentation = Representation<never> | Representation<unknown>;

/** Whether a store can write (SqlPersonStore and SqlWorkStore can; read-only fakes cannot). */
export function hasWriteMethods(store: object): boolean {
  const s = store as Partial<Record<'create' | 'replace' | 'delete', unknown>>;
  return typeof s.create === 'function' && typeof s.replace === 'function' && typeof s.delete === 'function';
}

/** After a successful write: 303 to the resource for browsers, else 201 (with Location) or 200. */
export function writtenOutcome(
  ctx: RequestContext,
  path: string,
  representation: AnyRepresentation,
  created: boolean,
): Outcome {
  if (formFlow(ctx)) return { type: 'redirect', status: 303, path };
  return created
    ? { type: 'representation', status: 201, representation, location: path }
    : { type: 'representation', status: 200, representation };
}

/** 422: the form again for browsers (`formPage()`), problem details (`errors`) for everyone else. */
export function invalidOutcome(
  ctx: RequestContext,
  problems: WriteProblem[],
  formPage: () => AnyRepresentation,
): Outcome {
  if (!formFlow(ctx)) throw validationError(problems);
  return { type: 'representation', status: 422, representation: formPage() };
}

/** DELETE of one resource (staff only): 303 to the collection after a form, else 204. */
export function deleteHandler<T extends { readonly id: number; readonly updatedAt: Date }>(
  store: Finder<T> & { delete(id: number, expect?: WriteExpectation): Promise<boolean> },
  collection: string,
  representationOf: (found: T) => AnyRepresentation,
): Handler {
  return async (ctx) => {
    requireStaff(ctx);
    return serialized('catalogue', () =>
      againWhenChanged(async (): Promise<Outcome> => {
        const target = await writeTarget(store, ctx, collection);
        if ('redirect' in target) return target.redirect;
        if (!('found' in target)) throw notFound();
        const current = target.found;
        ctx.checkPreconditions(representationOf(current));
        // Deletes only the row the preconditions were checked against (compare-and-set).
        if (!(await store.delete(current.id, { expectedUpdatedAt: current.updatedAt }))) throw gone();
        // A form DELETE (POST with `_method`) has a body; an API DELETE usually has none.
        return formFlow(ctx) && hasBody(ctx)
          ? { type: 'redirect', status: 303, path: collection }
          : { type: 'empty', status: 204 };
      }),
    );
  };
}
