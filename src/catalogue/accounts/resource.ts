// `/personen/{slug}/konto` (→ `/konto?slug=`, `/konto?id=`; docs/urls.md, ADR 0063): a person's
// account. GET for the person and staff; PUT, PATCH and DELETE for staff only.
//   PUT    → creates the account of a person without one (201; `username`, `rolle`,
//            `gesperrt`, `passwort`, on a form also `wiederholung`), or replaces role and lock
//            of the existing one (200; the user name stays, the password has its own resource).
//   PATCH  → JSON Merge Patch of the JSON representation (`rolle`, `gesperrt`), then as PUT.
//   DELETE → removes the account (the person stays): 204, or 303 to the person for a form.
// Locking, unlocking and a role change move the session epoch: the account's sessions and
// remembered Basic credentials end on every worker and machine.
import { applyMergePatch, parseMediaType, unsupportedPatch, type Fields } from '../../http/body/index.ts';
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import type { Person, PersonStore } from '../model.ts';
import { HttpError, notFound, personPath } from '../shared/index.ts';
import {
  againWhenChanged,
  serialized,
  formFlow,
  hasBody,
  requireStaff,
  staffOnly,
  invalidOutcome,
  enteredValues,
  type FormState,
} from '../writes/index.ts';
import type { WriteProblem } from '../writes/index.ts';
import { accountRepresentation, newAccountPage } from './account-view.ts';
import { AccountError } from './errors.ts';
import { lastStaffRefusal } from './last-staff-problem.ts';
import { ACCOUNT_PROBLEMS, readLocked, readNewPassword, readRole, text } from './input.ts';
import { hashPassword as scryptHash } from './password.ts';
import type { AccountResourceOptions } from './password-resource.ts';
import type { AccountDetails } from './rows.ts';
import { isValidUsername, normaliseUsername, type AccountStore } from './store.ts';
import { accountPath, accountTarget } from './access.ts';
import { routeOf } from '../registry/index.ts';

/** `?anlegen`: staff's HTML form that creates the account of a person without one. */
export const CREATE_PARAM = 'anlegen';
const FORM_FIELDS = ['username', 'rolle', 'gesperrt'];

/**
 * Staff do not lock, demote or delete their own account over HTTP: the last staff account could
 * lock everyone out of the administration (another staff member or the CLI can).
 */
function ownAccount(): HttpError {
  return new HttpError('SHELFMARK_CONFLICT', {
    detail: 'Staff cannot lock, demote or delete their own account; ask another staff member.',
    localDetail: {
      de: 'Das eigene Konto sperren, herabstufen oder löschen kann nur ein anderes Personalmitglied.',
      en: 'Only another staff member can lock, demote or delete your own account.',
    },
  });
}

export function accountResource(
  persons: PersonStore,
  accounts: AccountStore,
  options: AccountResourceOptions = {},
): ResourceDefinition {
  const hash = options.hashPassword ?? ((password: string) => scryptHash(password));
  const formState = (ctx: RequestContext, problems: WriteProblem[]): FormState => ({
    values: enteredValues(ctx.body, FORM_FIELDS),
    problems,
  });

  async function create(ctx: RequestContext, person: Person): Promise<Outcome> {
    const problems: WriteProblem[] = [];
    const given = text(ctx.body, 'username');
    const username = given === undefined ? '' : normaliseUsername(given);
    if (!isValidUsername(username)) problems.push(ACCOUNT_PROBLEMS.badUsername());
    const role = readRole(ctx.body);
    const locked = readLocked(ctx.body, formFlow(ctx));
    const next = readNewPassword(
      ctx.body,
      { password: 'passwort', repeat: 'wiederholung' },
      username,
      formFlow(ctx),
    );
    for (const p of [role, locked]) if (typeof p === 'object') problems.push(p);
    problems.push(...next.problems);
    const invalid = (all: WriteProblem[]) =>
      invalidOutcome(ctx, all, () => newAccountPage(person, formState(ctx, all)));
    if (problems.length > 0 || typeof role === 'object' || typeof locked === 'object' || !next.password)
      return invalid(problems);
    const passwordHash = await hash(next.password);
    try {
      await accounts.add({ personId: person.id, username, passwordHash, role, locked });
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      // The name is taken (or the person got an account meanwhile): 409 for API clients.
      if (formFlow(ctx)) return invalid([ACCOUNT_PROBLEMS.usernameTaken()]);
      throw new HttpError('SHELFMARK_CONFLICT', {
        detail: `The account cannot be created: ${error.message}.`,
      });
    }
    const created = await accounts.details(person.id);
    if (!created) throw notFound();
    return written(ctx, person, created, true);
  }

  function written(ctx: RequestContext, person: Person, account: AccountDetails, created: boolean): Outcome {
    const path = accountPath(person.slug);
    if (formFlow(ctx)) return { type: 'redirect', status: 303, path };
    const representation = accountRepresentation(person, account);
    return created
      ? { type: 'representation', status: 201, representation, location: path }
      : { type: 'representation', status: 200, representation };
  }

  async function replace(ctx: RequestContext, person: Person, current: AccountDetails): Promise<Outcome> {
    const problems: WriteProblem[] = [];
    const given = text(ctx.body, 'username');
    if (given !== undefined && normaliseUsername(given) !== current.username)
      problems.push(ACCOUNT_PROBLEMS.usernameFixed());
    if (text(ctx.body, 'passwort') !== undefined) problems.push(ACCOUNT_PROBLEMS.passwordElsewhere());
    const role = readRole(ctx.body);
    const locked = readLocked(ctx.body, formFlow(ctx));
    for (const p of [role, locked]) if (typeof p === 'object') problems.push(p);
    if (problems.length > 0 || typeof role === 'object' || typeof locked === 'object')
      return invalidOutcome(ctx, problems, () =>
        accountRepresentation(person, current, formState(ctx, problems)),
      );
    if (ctx.user?.id === current.id && (role !== 'staff' || locked)) throw ownAccount();
    const replaced = await accounts.update(
      person.id,
      { role, locked },
      { expectedUpdatedAt: current.updatedAt },
    );
    if (!replaced) throw notFound('This person has no account.');
    return written(ctx, person, replaced, false);
  }

  /** Staff only; the person (404/410/308 as for the person) and its account, or null. */
  async function staffTarget(ctx: RequestContext) {
    requireStaff(ctx);
    return accountTarget(ctx, persons, accounts, accountPath, 308);
  }

  // Staff only, refused unread to anyone else (staffTarget asks first; ADR 0077). The store
  // refuses to remove the last staff account: 409 SHELFMARK_LAST_STAFF.
  const write = (flow: (ctx: RequestContext) => Promise<Outcome>) =>
    staffOnly((ctx: RequestContext) =>
      serialized('catalogue', () =>
        againWhenChanged(() =>
          flow(ctx).catch((error: unknown) => {
            throw lastStaffRefusal(error) ?? error;
          }),
        ),
      ),
    );

  return {
    name: 'account',
    path: routeOf('Account'),
    methods: {
      async GET(ctx) {
        const found = await accountTarget(ctx, persons, accounts, accountPath, 301);
        if ('redirect' in found) return found.redirect;
        if (!found.account) {
          // Only staff get here (others were refused): the create form, when asked for in HTML.
          if (ctx.format === 'html' && ctx.query.has(CREATE_PARAM))
            return { type: 'representation', representation: newAccountPage(found.person) };
          throw notFound('This person has no account.');
        }
        return { type: 'representation', representation: accountRepresentation(found.person, found.account) };
      },

      PUT: write(async (ctx) => {
        const found = await staffTarget(ctx);
        if ('redirect' in found) return found.redirect;
        const { person, account } = found;
        ctx.checkPreconditions(account ? accountRepresentation(person, account) : null);
        return account ? replace(ctx, person, account) : create(ctx, person);
      }),

      PATCH: write(async (ctx) => {
        if (ctx.body === undefined || ctx.body === null) throw unsupportedPatch(parseMediaType(undefined));
        const found = await staffTarget(ctx);
        if ('redirect' in found) return found.redirect;
        const { person, account } = found;
        if (!account) throw notFound('This person has no account.');
        const current = accountRepresentation(person, account);
        ctx.checkPreconditions(current);
        const base = JSON.parse(
          JSON.stringify(current.view.json(current.model, { ...ctx, format: 'json' })),
        ) as Fields;
        const body = applyMergePatch(base, ctx.body as Fields);
        return replace({ ...ctx, body, bodyType: 'json' }, person, account);
      }),

      DELETE: write(async (ctx) => {
        const found = await staffTarget(ctx);
        if ('redirect' in found) return found.redirect;
        const { person, account } = found;
        if (!account) throw notFound('This person has no account.');
        ctx.checkPreconditions(accountRepresentation(person, account));
        if (ctx.user?.id === account.id) throw ownAccount();
        if (!(await accounts.removeById(person.id))) throw notFound('This person has no account.');
        return formFlow(ctx) && hasBody(ctx)
          ? { type: 'redirect', status: 303, path: personPath(person.slug) }
          : { type: 'empty', status: 204 };
      }),
    },
  };
}
