// `/personen/{slug}/konto/passwort`: the account's password as a resource. Reading it tells only
// when it was last changed (schema `password`), never the password or its hash; its HTML is the
// form that changes it (the own password: old, new, repeated) or, for staff, sets a new one.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { momentHtml, fullName } from '../shared/index.ts';
import { layout } from '../layout/index.ts';
import type { Person } from '../model.ts';
import { EMPTY_FORM, type FormState } from '../writes/index.ts';
import { passwordForm } from './forms.ts';
import type { AccountDetails } from './rows.ts';
import { accountStrings } from './strings.ts';
import { accountPath, passwordPath } from './access.ts';

export interface PasswordModel {
  readonly person: Person;
  readonly account: AccountDetails;
  readonly state: FormState;
}

const iso = (d: Date) => d.toISOString();

function passwordHtml(m: PasswordModel, ctx: RequestContext): Markup {
  const t = accountStrings(ctx.lang);
  const title = t.passwordTitle(fullName(m.person));
  const own = ctx.user?.id === m.account.id;

  const main = html`<article class="password">
    <h1>${title}</h1>
    <p>
      ${t.passwordChanged}: ${momentHtml(m.account.passwordChangedAt, ctx.lang)} ·
      <a href="${ctx.links.relative(accountPath(m.person.slug))}">${t.account}</a>
    </p>
    ${passwordForm(passwordPath(m.person.slug), own, m.state, ctx)}
  </article>`;
  return layout({ title, main, canonicalPath: passwordPath(m.person.slug), section: 'persons' }, ctx);
}

function passwordXml(m: PasswordModel, ctx: RequestContext): Markup {
  return xml`<passwort>
  <konto ref="${ctx.links.absolute(accountPath(m.person.slug))}"/>
  <geaendert>${iso(m.account.passwordChangedAt)}</geaendert>
</passwort>`;
}

function passwordJson(m: PasswordModel, ctx: RequestContext): unknown {
  return {
    konto: { url: ctx.links.absolute(accountPath(m.person.slug)) },
    geaendert: iso(m.account.passwordChangedAt),
  };
}

export const passwordView: View<PasswordModel> = { html: passwordHtml, xml: passwordXml, json: passwordJson };

export function passwordRepresentation(
  person: Person,
  account: AccountDetails,
  state: FormState = EMPTY_FORM,
): Representation<PasswordModel> {
  return {
    model: { person, account, state },
    view: passwordView,
    canonicalPath: passwordPath(person.slug),
    lastModified: account.passwordChangedAt,
    schema: 'password',
    links: [{ rel: 'up', path: accountPath(person.slug) }],
  };
}
