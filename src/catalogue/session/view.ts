// /sitzung: the log-in form, or who is logged in. XML/JSON say who is logged in (schema
// `session`), with the CSRF token a cookie-authenticated API client needs for unsafe requests.
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import type { Principal, RequestContext, View } from '../../http/resource/types.ts';
import { layout } from '../layout/index.ts';
import { personPath } from '../shared/index.ts';
import { pathBuilder } from '../registry/index.ts';
import { loginForm, logoutButton } from './form.ts';
import { SESSION_PATH } from './return-path.ts';
import { sessionStrings } from './strings.ts';

export interface SessionModel {
  readonly user: Principal | null;
  /** The logged-in user's person (slug and name), when it still exists. */
  readonly person: { readonly slug: string; readonly name: string } | null;
  readonly csrfToken: string | null;
  /** Where the log-in form returns to. */
  readonly returnTo: string;
}

/** A user's loans: the registry's link, the one loans/ builds too. */
export const loansPath: (userId: number) => string = pathBuilder('Loans');

function sessionHtml(m: SessionModel, ctx: RequestContext): Markup {
  const t = sessionStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  if (!m.user) {
    const main = html`<section class="session">
      <h1>${t.loginTitle}</h1>
      <p>${t.loginIntro}</p>
      ${loginForm(ctx, m.returnTo)}
    </section>`;
    return layout({ title: t.loginTitle, main, canonicalPath: SESSION_PATH }, ctx);
  }
  const main = html`<section class="session">
    <h1>${t.sessionTitle}</h1>
    <p>${t.loggedInAs} <strong>${m.user.username}</strong> (${t.role[m.user.role]})</p>
    <ul>
      <li><a href="${rel(loansPath(m.user.id))}">${t.myLoans}</a></li>
      ${m.person ? html`<li><a href="${rel(personPath(m.person.slug))}">${t.myPerson}</a></li>` : ''}
    </ul>
    ${logoutButton(ctx, m.csrfToken)}
  </section>`;
  return layout({ title: t.sessionTitle, main, canonicalPath: SESSION_PATH }, ctx);
}

function sessionXml(m: SessionModel, ctx: RequestContext): Markup {
  if (!m.user) return xml`<sitzung angemeldet="false"/>`;
  const abs = (p: string) => ctx.links.absolute(p);
  return xml`<sitzung angemeldet="true">
  <username>${m.user.username}</username>
  <rolle>${m.user.role}</rolle>
  ${m.person ? xml`<person ref="${abs(personPath(m.person.slug))}">${m.person.name}</person>` : ''}
  <ausleihen ref="${abs(loansPath(m.user.id))}"/>
  ${m.csrfToken ? xml`<csrfToken>${m.csrfToken}</csrfToken>` : ''}
</sitzung>`;
}

function sessionJson(m: SessionModel, ctx: RequestContext): unknown {
  if (!m.user) return { angemeldet: false };
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    angemeldet: true,
    username: m.user.username,
    rolle: m.user.role,
    ...(m.person && { person: { name: m.person.name, url: abs(personPath(m.person.slug)) } }),
    ausleihen: { url: abs(loansPath(m.user.id)) },
    ...(m.csrfToken && { csrfToken: m.csrfToken }),
  };
}

export const sessionView: View<SessionModel> = { html: sessionHtml, xml: sessionXml, json: sessionJson };
