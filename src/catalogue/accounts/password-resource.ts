// `/personen/{slug}/konto/passwort` (→ `/konto/passwort?slug=`; docs/urls.md, ADR 0063).
//   GET  → when the password was last changed (XML/JSON, schema `password`); HTML: the form.
//   PUT  → a new password (forms: POST with `_method=PUT`; the password only ever in the body,
//          so it never reaches the access log). The account's own person sends `altesPasswort`
//          and `neuesPasswort` (a form also `wiederholung`); staff on another's account send
//          `neuesPasswort` alone (a reset). 204, or 303 to the account for a form.
// A wrong old password is 422 on `altesPasswort` (a mistyped field, shown beside it on the form;
// not 403: the person may change their password) and counts as a failed log-in: rate-limited
// (429) and logged as one. A weak new password is 422. The change moves the account's session
// epoch: every other session and remembered Basic credential ends; the device that changed its
// own password gets its cookie reissued and stays logged in.
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import type { PersonStore } from '../model.ts';
import { notFound } from '../shared/index.ts';
import { againWhenChanged, serialized, formFlow, invalidOutcome } from '../writes/index.ts';
import type { WriteProblem } from '../writes/index.ts';
import { hashPassword as scryptHash } from './password.ts';
import { ACCOUNT_PROBLEMS, readNewPassword, required, text } from './input.ts';
import { passwordRepresentation } from './password-view.ts';
import type { AccountStore } from './store.ts';
import { accountPath, accountTarget, passwordPath } from './access.ts';
import { routeOf } from '../registry/index.ts';

export interface AccountResourceOptions {
  /** Hashes a new password (default: scrypt, ADR 0035; tests pass a fast one). */
  readonly hashPassword?: (password: string) => Promise<string>;
}

export function passwordResource(
  persons: PersonStore,
  accounts: AccountStore,
  options: AccountResourceOptions = {},
): ResourceDefinition {
  const hash = options.hashPassword ?? ((password: string) => scryptHash(password));

  async function target(ctx: RequestContext, moved: 301 | 308) {
    const found = await accountTarget(ctx, persons, accounts, passwordPath, moved);
    if ('redirect' in found) return found;
    if (!found.account) throw notFound('This person has no account.');
    return { ...found, account: found.account };
  }

  async function put(ctx: RequestContext): Promise<Outcome> {
    const found = await target(ctx, 308);
    if ('redirect' in found) return found.redirect;
    const { person, account, self } = found;
    ctx.checkPreconditions(passwordRepresentation(person, account));
    const problems: WriteProblem[] = [];
    if (self) {
      // The own password needs the old one: a stolen session cookie alone cannot take the account.
      const old = text(ctx.body, 'altesPasswort');
      if (old === undefined) problems.push(required('altesPasswort'));
      else if (!(await ctx.session.confirmPassword(old))) problems.push(ACCOUNT_PROBLEMS.wrongOldPassword());
    }
    const next = readNewPassword(
      ctx.body,
      { password: 'neuesPasswort', repeat: 'wiederholung' },
      account.username,
      formFlow(ctx),
    );
    problems.push(...next.problems);
    if (problems.length > 0 || next.password === undefined)
      return invalidOutcome(ctx, problems, () =>
        passwordRepresentation(person, account, { values: {}, problems }),
      );
    const passwordHash = await hash(next.password);
    const changed = await accounts.changePassword(person.id, passwordHash, {
      expectedUpdatedAt: account.passwordChangedAt,
    });
    if (!changed) throw notFound('This person has no account.');
    // This device stays logged in; every other session of the account has just ended.
    if (self) ctx.session.renew(changed.epoch);
    return formFlow(ctx)
      ? { type: 'redirect', status: 303, path: accountPath(person.slug) }
      : { type: 'empty', status: 204 };
  }

  return {
    name: 'account-password',
    path: routeOf('Password'),
    methods: {
      async GET(ctx) {
        const found = await target(ctx, 301);
        if ('redirect' in found) return found.redirect;
        return {
          type: 'representation',
          representation: passwordRepresentation(found.person, found.account),
        };
      },
      // Changed between the check and the write (ChangedMeanwhileError): run again on the new state.
      PUT: (ctx) => serialized('catalogue', () => againWhenChanged(() => put(ctx))),
    },
  };
}
