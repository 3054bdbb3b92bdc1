// The account's forms: staff create an account for a person, change its role and lock, delete
// it; a member changes their own password (old, new, repeated), staff set a new one without the
// old. Password inputs never carry a value: a password is never echoed, not even on a 422 page.
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { errorSummary, field, hiddenFields, type FormState, formStrings } from '../writes/index.ts';
import type { Role } from '../tables.ts';
import { MIN_PASSWORD_LENGTH } from './password-rule.ts';
import { accountStrings } from './strings.ts';
import { ROLES } from './errors.ts';

type Ctx = RequestContext;

function problemOf(state: FormState, name: string) {
  return state.problems.find((p) => p.field === name);
}

/** A password input: `autocomplete` tells password managers which one it is. */
export function passwordField(
  prefix: string,
  name: string,
  label: string,
  autocomplete: 'current-password' | 'new-password',
  state: FormState,
  ctx: Ctx,
  hint?: string,
): Markup {
  const id = `${prefix}-${name}`;
  const problem = problemOf(state, name);
  const described = [hint && `${id}-hinweis`, problem && `${id}-fehler`].filter(Boolean).join(' ');
  const minlength = autocomplete === 'new-password' ? html` minlength="${MIN_PASSWORD_LENGTH}"` : '';
  return html`<div class="field${problem ? ' invalid' : ''}">
    <label for="${id}">${label} <span class="required">(${formStrings(ctx.lang).required})</span></label>
    <input id="${id}" name="${name}" type="password" autocomplete="${autocomplete}" required${minlength}${
      problem ? html` aria-invalid="true"` : ''
    }${described ? html` aria-describedby="${described}"` : ''} />
    ${hint && html`<p class="hint" id="${id}-hinweis">${hint}</p>`}
    ${problem && html`<p class="field-error" id="${id}-fehler">${formStrings(ctx.lang).problem(problem)}</p>`}
  </div>`;
}

function roleField(prefix: string, role: string, state: FormState, ctx: Ctx): Markup {
  const t = accountStrings(ctx.lang);
  const id = `${prefix}-rolle`;
  return html`<div class="field${problemOf(state, 'rolle') ? ' invalid' : ''}">
    <label for="${id}">${t.role}</label>
    <select id="${id}" name="rolle">
      ${ROLES.map(
        (r: Role) => html`<option value="${r}"${r === role ? html` selected` : ''}>${t.roles[r]}</option> `,
      )}
    </select>
  </div>`;
}

function lockedField(prefix: string, locked: boolean, ctx: Ctx): Markup {
  const t = accountStrings(ctx.lang);
  const id = `${prefix}-gesperrt`;
  return html`<div class="field">
    <input id="${id}" name="gesperrt" type="checkbox" value="true"${locked ? html` checked` : ''} aria-describedby="${id}-hinweis" />
    <label for="${id}">${t.locked}</label>
    <p class="hint" id="${id}-hinweis">${t.lockedHint}</p>
  </div>`;
}

function labels(ctx: Ctx): Record<string, string> {
  const t = accountStrings(ctx.lang);
  return {
    username: t.username,
    rolle: t.role,
    gesperrt: t.locked,
    passwort: t.initialPassword,
    altesPasswort: t.oldPassword,
    neuesPasswort: t.newPassword,
    wiederholung: t.repeatPassword,
  };
}

/** Staff: a new account for a person without one (PUT creates it at the account's URL). */
export function createAccountForm(action: string, state: FormState, ctx: Ctx): Markup {
  const t = accountStrings(ctx.lang);
  const prefix = 'konto-neu';
  const hint = t.passwordHint(MIN_PASSWORD_LENGTH);
  return html`<form class="write" method="post" action="${ctx.links.relative(action)}">
    ${hiddenFields(ctx, 'PUT', null)} ${errorSummary(prefix, state, labels(ctx), ctx)}
    ${field(prefix, { name: 'username', label: t.username, required: true, hint: t.usernameHint, maxLength: 40 }, state, ctx)}
    ${roleField(prefix, state.values.rolle || 'member', state, ctx)} ${lockedField(prefix, state.values.gesperrt === 'true', ctx)}
    ${passwordField(prefix, 'passwort', t.initialPassword, 'new-password', state, ctx, hint)}
    ${passwordField(prefix, 'wiederholung', t.repeatPassword, 'new-password', state, ctx)}
    <button type="submit">${t.createAccount}</button>
  </form>`;
}

/** Staff: role and lock of an existing account (PUT with the account's version). */
export function editAccountForm(
  action: string,
  current: { role: Role; locked: boolean },
  version: string | null,
  state: FormState,
  ctx: Ctx,
): Markup {
  const prefix = 'konto';
  return html`<form class="write" method="post" action="${ctx.links.relative(action)}">
    ${hiddenFields(ctx, 'PUT', version)} ${errorSummary(prefix, state, labels(ctx), ctx)}
    ${roleField(prefix, current.role, state, ctx)} ${lockedField(prefix, current.locked, ctx)}
    <button type="submit">${accountStrings(ctx.lang).save}</button>
  </form>`;
}

export function deleteAccountForm(action: string, version: string | null, ctx: Ctx): Markup {
  const t = accountStrings(ctx.lang);
  return html`<form class="delete" method="post" action="${ctx.links.relative(action)}">
    ${hiddenFields(ctx, 'DELETE', version)}
    <p>${t.deleteConsequence}</p>
    <button type="submit">${t.deleteAccount}</button>
  </form>`;
}

/** The own password (old, new, repeated) or, for staff on another's account, a reset (new, repeated). */
export function passwordForm(action: string, own: boolean, state: FormState, ctx: Ctx): Markup {
  const t = accountStrings(ctx.lang);
  const prefix = 'passwort';
  const hint = t.passwordHint(MIN_PASSWORD_LENGTH);
  return html`<form class="write" method="post" action="${ctx.links.relative(action)}">
    ${hiddenFields(ctx, 'PUT', null)} ${errorSummary(prefix, state, labels(ctx), ctx)}
    <p>${own ? t.otherSessionsEnd : t.resetIntro}</p>
    ${own ? passwordField(prefix, 'altesPasswort', t.oldPassword, 'current-password', state, ctx) : ''}
    ${passwordField(prefix, 'neuesPasswort', t.newPassword, 'new-password', state, ctx, hint)}
    ${passwordField(prefix, 'wiederholung', t.repeatPassword, 'new-password', state, ctx)}
    <button type="submit">${own ? t.changePassword : t.resetPassword}</button>
  </form>`;
}
