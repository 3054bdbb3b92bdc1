// `/personen/{slug}/konto`: a person's account (for that person and staff only). XML and JSON
// (schema `account`) show the user name, role, lock, creation and the links to the person and
// the password resource; never the password or its hash. HTML adds, for staff, the forms that
// change role and lock and delete the account; `?anlegen` is, for staff and a person without
// an account, the form that creates one.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { momentHtml, momentText, fullName, personPath } from '../shared/index.ts';
import { loansPath } from '../loans/index.ts';
import { holdsPath } from '../holds/index.ts';
import { personNoticesPath } from '../notices/index.ts';
import { layout } from '../layout/index.ts';
import type { Person } from '../model.ts';
import { EMPTY_FORM, formPageView, isStaff, versionFor, type FormState } from '../writes/index.ts';
import { createAccountForm, deleteAccountForm, editAccountForm } from './forms.ts';
import type { AccountDetails } from './rows.ts';
import { accountStrings } from './strings.ts';
import { accountPath, passwordPath } from './access.ts';
import { settingsPath } from './settings-view.ts';
import { settingsStrings } from './settings-strings.ts';

export interface AccountModel {
  readonly person: Person;
  readonly account: AccountDetails;
  /** Problems of a staff form write shown again (422). */
  readonly state?: FormState;
}

const iso = (d: Date) => d.toISOString();

function staffTools(m: AccountModel, ctx: RequestContext): Markup | string {
  if (!isStaff(ctx)) return '';
  const path = accountPath(m.person.slug);
  const version = versionFor(ctx, accountRepresentation(m.person, m.account));
  const t = accountStrings(ctx.lang);
  return html`<section class="staff-tools" aria-labelledby="konto-bearbeiten">
    <h2 id="konto-bearbeiten">${t.role} / ${t.locked}</h2>
    ${editAccountForm(path, m.account, version, m.state ?? EMPTY_FORM, ctx)}
    ${deleteAccountForm(path, version, ctx)}
  </section>`;
}

function accountHtml(m: AccountModel, ctx: RequestContext): Markup {
  const t = accountStrings(ctx.lang);
  const a = m.account;
  const name = fullName(m.person);
  const title = t.accountTitle(name);
  const own = ctx.user?.id === a.id;
  const main = html`<article class="account">
      <h1>${title}</h1>
      <dl class="facts">
        <dt>${t.username}</dt>
        <dd class="username">${a.username}</dd>
        <dt>${t.cardNumber}</dt>
        <dd class="ausweis">${a.cardNumber ?? '—'}</dd>
        <dt>${t.role}</dt>
        <dd class="rolle">${t.roles[a.role]}</dd>
        <dt>${t.locked}</dt>
        <dd class="gesperrt">${a.lockedAt ? t.lockedSince(momentText(a.lockedAt, ctx.lang)) : t.notLocked}</dd>
        <dt>${t.created}</dt>
        <dd>${momentHtml(a.createdAt, ctx.lang)}</dd>
        <dt>${t.person}</dt>
        <dd><a href="${ctx.links.relative(personPath(m.person.slug))}">${name}</a></dd>
      </dl>
      ${
        own
          ? html`<ul class="my-links">
              <li><a href="${ctx.links.relative(loansPath(a.id))}">${t.myLoans}</a></li>
              <li><a href="${ctx.links.relative(holdsPath(m.person.slug))}">${t.myHolds}</a></li>
              <li><a href="${ctx.links.relative(personNoticesPath(m.person.slug))}">${t.myNotices}</a></li>
            </ul>`
          : ''
      }
      <p>
        <a class="password" href="${ctx.links.relative(passwordPath(m.person.slug))}"
          >${own ? t.changePassword : t.resetPassword}</a
        >
        ·
        <a class="settings" href="${ctx.links.relative(settingsPath(m.person.slug))}"
          >${settingsStrings(ctx.lang).settings}</a
        >
      </p>
    </article>
    ${staffTools(m, ctx)}`;
  return layout({ title, main, canonicalPath: accountPath(m.person.slug), section: 'persons' }, ctx);
}

function accountXml(m: AccountModel, ctx: RequestContext): Markup {
  const a = m.account;
  const abs = (p: string) => ctx.links.absolute(p);
  return xml`<konto>
  <person ref="${abs(personPath(m.person.slug))}">${fullName(m.person)}</person>
  <username>${a.username}</username>
  ${a.cardNumber !== null ? xml`<ausweis>${a.cardNumber}</ausweis>` : ''}
  <rolle>${a.role}</rolle>
  <gesperrt>${a.locked ? 'true' : 'false'}</gesperrt>
  ${a.lockedAt ? xml`<gesperrtSeit>${iso(a.lockedAt)}</gesperrtSeit>` : ''}
  <angelegt>${iso(a.createdAt)}</angelegt>
  <passwort ref="${abs(passwordPath(m.person.slug))}"/>
</konto>`;
}

function accountJson(m: AccountModel, ctx: RequestContext): unknown {
  const a = m.account;
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    person: { name: fullName(m.person), url: abs(personPath(m.person.slug)) },
    username: a.username,
    ausweis: a.cardNumber,
    rolle: a.role,
    gesperrt: a.locked,
    gesperrtSeit: a.lockedAt ? iso(a.lockedAt) : null,
    angelegt: iso(a.createdAt),
    passwort: { url: abs(passwordPath(m.person.slug)) },
  };
}

export const accountView: View<AccountModel> = { html: accountHtml, xml: accountXml, json: accountJson };

export function accountRepresentation(
  person: Person,
  account: AccountDetails,
  state?: FormState,
): Representation<AccountModel> {
  return {
    model: { person, account, ...(state && { state }) },
    view: accountView,
    canonicalPath: accountPath(person.slug),
    lastModified: account.updatedAt,
    schema: 'account',
    links: [
      { rel: 'up', path: personPath(person.slug) },
      { rel: 'related', path: passwordPath(person.slug) },
      { rel: 'related', path: settingsPath(person.slug) },
    ],
  };
}

/** Staff, `?anlegen` (and a create form with problems, 422): a new account for the person. */
export interface NewAccountModel {
  readonly person: Person;
  readonly state: FormState;
}

export const newAccountView = formPageView<NewAccountModel>((m, ctx) => {
  const title = accountStrings(ctx.lang).newAccountTitle(fullName(m.person));
  return {
    title,
    main: html`<h1>${title}</h1>
      ${createAccountForm(accountPath(m.person.slug), m.state, ctx)}`,
    section: 'persons',
    state: m.state,
  };
});

export function newAccountPage(
  person: Person,
  state: FormState = EMPTY_FORM,
): Representation<NewAccountModel> {
  return { model: { person, state }, view: newAccountView, canonicalPath: accountPath(person.slug) };
}
