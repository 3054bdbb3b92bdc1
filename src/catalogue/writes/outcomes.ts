// The answers of the write flow that depend on the client, not on the resource: 303 for
// browsers or 201/200 with the representation for API clients after a write, and the 422 form
// page; plus the check whether a store can write at all.
import type { Outcome, Representation, RequestContext } from '../../http/resource/types.ts';
import { formFlow } from './access.ts';
import { validationError, type WriteProblem } from './problems.ts';

/** Any resource's representation, as Outcome and checkPreconditions take it. */
export type AnyRepresentation = Representation<never> | Representation<unknown>;

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
