// The log-in form (on /sitzung and on 401/403 error pages) and the header's log-out button.
// Field names: username, password, zurueck (the local path to return to); the log-out button
// POSTs `_method=DELETE` with the session's CSRF token.
import { html, type Markup } from '../../http/representation/markup.ts';
import type { Lang, Links } from '../../http/resource/types.ts';
import { RETURN_FIELD, SESSION_PATH } from './return-path.ts';
import { sessionStrings } from './strings.ts';

/** The password reset's request form (src/catalogue/password-reset, ADR 0093). */
const FORGOT_PATH = '/passwort-vergessen';

export interface FormContext {
  readonly lang: Lang;
  readonly links: Links;
}

/** `idPrefix` keeps ids unique when a page carries more than one form. */
export function loginForm(ctx: FormContext, returnTo: string, idPrefix = 'anmeldung'): Markup {
  const t = sessionStrings(ctx.lang);
  // The return path also rides in the action's query, so a failed attempt (answered by the
  // 401 error page, which sees no body) can offer the form again with the same destination.
  const action = ctx.links.relative(
    returnTo === '/' ? SESSION_PATH : `${SESSION_PATH}?${RETURN_FIELD}=${encodeURIComponent(returnTo)}`,
  );
  return html`<form class="login" method="post" action="${action}">
    <input type="hidden" name="${RETURN_FIELD}" value="${returnTo}" />
    <p>
      <label for="${idPrefix}-name">${t.username}</label>
      <input
        id="${idPrefix}-name"
        name="username"
        type="text"
        autocomplete="username"
        autocapitalize="none"
        spellcheck="false"
        required
      />
    </p>
    <p>
      <label for="${idPrefix}-passwort">${t.password}</label>
      <input id="${idPrefix}-passwort" name="password" type="password" autocomplete="current-password" required />
    </p>
    <p><button type="submit">${t.loginButton}</button></p>
    <p class="forgot"><a href="${ctx.links.relative(FORGOT_PATH)}">${t.forgotPassword}</a></p>
  </form>`;
}

export function logoutButton(ctx: FormContext, csrfToken: string | null | undefined): Markup {
  const t = sessionStrings(ctx.lang);
  return html`<form class="logout" method="post" action="${ctx.links.relative(SESSION_PATH)}">
    <input type="hidden" name="_method" value="DELETE" />
    ${csrfToken ? html`<input type="hidden" name="_csrf" value="${csrfToken}" />` : ''}
    <button type="submit">${t.logoutButton}</button>
  </form>`;
}
