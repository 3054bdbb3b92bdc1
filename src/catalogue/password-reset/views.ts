// The reset pages (ADR 0093). `/passwort-vergessen` (schema `password-reset-request`): the form
// that asks for a link, and after a request the same answer whatever was given. XML and JSON
// say how long a link works and whether reset by e-mail is set up. `/passwort-neu/{token}`
// (schema `password-reset`): the account the link is for, until when it works; HTML is the
// form that sets the new password.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import { momentText } from '../shared/index.ts';
import { EMPTY_FORM, errorSummary, field, hiddenFields, type FormState } from '../writes/index.ts';
import { passwordField } from '../accounts/index.ts';
import { MIN_PASSWORD_LENGTH } from '../accounts/index.ts';
import { accountStrings } from '../accounts/index.ts';
import { resetPath } from './mail.ts';
import { RESET_VALID_MINUTES } from './store.ts';
import { resetStrings } from './strings.ts';
import { routeOf } from '../registry/index.ts';

export const REQUEST_PATH = routeOf('PasswordResetRequest');
/** `?angefordert`: the page after a request (Post/Redirect/Get). */
export const REQUESTED_PARAM = 'angefordert';

export interface RequestModel {
  /** Reset by e-mail is set up (an SMTP server is configured). */
  readonly available: boolean;
  readonly requested: boolean;
  readonly state: FormState;
}

function requestHtml(m: RequestModel, ctx: RequestContext): Markup {
  const t = resetStrings(ctx.lang);
  const prefix = 'vergessen';
  const form = html`<form class="write" method="post" action="${ctx.links.relative(REQUEST_PATH)}">
    ${hiddenFields(ctx, 'POST', null)} ${errorSummary(prefix, m.state, { konto: t.identifier }, ctx)}
    ${field(prefix, { name: 'konto', label: t.identifier, required: true, maxLength: 254 }, m.state, ctx)}
    <button type="submit">${t.send}</button>
  </form>`;
  const main = html`<article class="password-reset">
    <h1>${t.requestTitle}</h1>
    ${
      !m.available
        ? html`<p>${t.unavailable}</p>`
        : html`${m.requested ? html`<p class="notice" role="status">${t.requested}</p>` : ''}
            <p>${t.requestIntro(RESET_VALID_MINUTES)}</p>
            ${form}`
    }
  </article>`;
  return layout({ title: t.requestTitle, main, canonicalPath: REQUEST_PATH }, ctx);
}

export const requestView: View<RequestModel> = {
  html: requestHtml,
  xml: (m) => xml`<passwortVergessen>
  <verfuegbar>${m.available ? 'true' : 'false'}</verfuegbar>
  <gueltigMinuten>${RESET_VALID_MINUTES}</gueltigMinuten>
</passwortVergessen>`,
  json: (m) => ({ verfuegbar: m.available, gueltigMinuten: RESET_VALID_MINUTES }),
};

export function requestRepresentation(
  available: boolean,
  requested: boolean,
  state: FormState = EMPTY_FORM,
): Representation<RequestModel> {
  return {
    model: { available, requested, state },
    view: requestView,
    canonicalPath: REQUEST_PATH,
    schema: 'password-reset-request',
  };
}

export interface ResetModel {
  readonly token: string;
  readonly username: string;
  readonly expiresAt: Date;
  readonly state: FormState;
}

function resetHtml(m: ResetModel, ctx: RequestContext): Markup {
  const t = resetStrings(ctx.lang);
  const a = accountStrings(ctx.lang);
  const prefix = 'neu';
  const labels = { neuesPasswort: t.newPassword, wiederholung: t.repeatPassword };
  const main = html`<article class="password-reset">
    <h1>${t.resetTitle}</h1>
    <p>${t.resetIntro(m.username, momentText(m.expiresAt, ctx.lang))}</p>
    <form class="write" method="post" action="${ctx.links.relative(resetPath(m.token))}">
      ${hiddenFields(ctx, 'POST', null)} ${errorSummary(prefix, m.state, labels, ctx)}
      ${passwordField(prefix, 'neuesPasswort', t.newPassword, 'new-password', m.state, ctx, a.passwordHint(MIN_PASSWORD_LENGTH))}
      ${passwordField(prefix, 'wiederholung', t.repeatPassword, 'new-password', m.state, ctx)}
      <button type="submit">${t.save}</button>
    </form>
  </article>`;
  // No canonical link: the page's URL is the secret.
  return layout({ title: t.resetTitle, main }, ctx);
}

export const resetView: View<ResetModel> = {
  html: resetHtml,
  xml: (m) => xml`<passwortNeu>
  <username>${m.username}</username>
  <gueltigBis>${m.expiresAt.toISOString()}</gueltigBis>
</passwortNeu>`,
  json: (m) => ({ username: m.username, gueltigBis: m.expiresAt.toISOString() }),
};

export function resetRepresentation(
  token: string,
  username: string,
  expiresAt: Date,
  state: FormState = EMPTY_FORM,
): Representation<ResetModel> {
  return {
    model: { token, username, expiresAt, state },
    view: resetView,
    canonicalPath: resetPath(token),
    schema: 'password-reset',
  };
}
