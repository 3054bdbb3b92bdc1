// The person page's link to the account, for that person and staff only (the account is
// private: nobody else learns it exists, ADR 0063); staff get "create an account" for a person
// without one. The person page is cached per viewer (ADR 0048), and creating or removing an
// account moves the person's version (ADR 0024), so the link is never stale.
import type { RequestContext } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import type { Person } from '../model.ts';
import { accountStrings } from './strings.ts';
import { accountPath } from './access.ts';

export function accountLink(p: Person, ctx: RequestContext): Markup | string {
  const staff = ctx.user?.role === 'staff';
  if (!staff && ctx.user?.id !== p.id) return '';
  const t = accountStrings(ctx.lang);
  const path = ctx.links.relative(accountPath(p.slug));
  if (p.username !== null) return html`<p class="account-link"><a href="${path}">${t.account}</a></p>`;
  return staff ? html`<p class="account-link"><a href="${path}?anlegen">${t.createAccount}</a></p>` : '';
}
