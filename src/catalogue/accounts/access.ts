// Whose account a request addresses, and whether the asker may touch it (docs/access.md):
// the person themselves and staff. As for loans (loans/access.ts), everyone else — another
// member, an anonymous client — gets 403 whatever the person, existing or not, so the
// account URLs tell nobody which persons have an account or exist (user names are private,
// ADR 0063). Staff get 404 for an unknown person, 410 for a deleted one, 301/308 for a moved slug.
import type { Outcome, RequestContext } from '../../http/resource/types.ts';
import type { Person, PersonStore } from '../model.ts';
import { HttpError, lookUp, resolve } from '../shared/index.ts';
import type { AccountStore } from './store.ts';
import type { AccountDetails } from './rows.ts';
import { accountStrings } from './strings.ts';
import { pathBuilder } from '../registry/index.ts';

export const accountPath: (slug: string) => string = pathBuilder('Account');
export const passwordPath: (slug: string) => string = pathBuilder('Password');

export interface AccountTarget {
  readonly person: Person;
  /** Null: the person has no account (only staff get this far then). */
  readonly account: AccountDetails | null;
  /** The asker is the account's own person. */
  readonly self: boolean;
}

export function forbidden(ctx: RequestContext): HttpError {
  const detail = 'An account can only be seen and changed by its person and by staff.';
  return new HttpError('SHELFMARK_FORBIDDEN', {
    detail: ctx.user === null ? `${detail} Please log in.` : detail,
    localDetail: { de: accountStrings('de').forbidden, en: accountStrings('en').forbidden },
  });
}

export async function accountTarget(
  ctx: RequestContext,
  persons: PersonStore,
  accounts: AccountStore,
  pathOf: (slug: string) => string,
  movedStatus: 301 | 308,
): Promise<AccountTarget | { redirect: Outcome }> {
  if (ctx.user === null) throw forbidden(ctx);
  const lookup = await lookUp(persons, ctx);
  if (ctx.user.role !== 'staff') {
    // Only the own person, found directly: nothing is resolved (or revealed) for anyone else.
    if (lookup === null || !('found' in lookup) || lookup.found.id !== ctx.user.id) throw forbidden(ctx);
  }
  const resolved = resolve(lookup, pathOf, movedStatus);
  if ('redirect' in resolved) return resolved;
  const person = resolved.found;
  return { person, account: await accounts.details(person.id), self: person.id === ctx.user.id };
}
