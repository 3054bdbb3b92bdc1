// `/personen/{slug}/konto/einstellungen`: the patron's settings (schema `settings`): the private
// e-mail address, the language of their mails, whether they want notices. HTML is the form that
// changes them (PUT with the representation's version, like every writable resource).
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { momentHtml } from '../shared/index.ts';
import { layout } from '../layout/index.ts';
import type { Person } from '../model.ts';
import { fullName } from '../shared/index.ts';
import {
  EMPTY_FORM,
  errorSummary,
  field,
  hiddenFields,
  versionFor,
  type FormState,
} from '../writes/index.ts';
import { formStrings } from '../writes/index.ts';
import { MAX_EMAIL_LENGTH } from './settings-input.ts';
import { NOTICE_LANGUAGES, type Settings } from './settings-store.ts';
import { settingsStrings } from './settings-strings.ts';
import { accountPath } from './access.ts';
import { pathBuilder } from '../registry/index.ts';

export const settingsPath: (slug: string) => string = pathBuilder('Settings');

export interface SettingsModel {
  readonly person: Person;
  readonly settings: Settings;
  /** A form write's entered values and problems, shown again with 422. */
  readonly state: FormState;
}

function settingsForm(m: SettingsModel, ctx: RequestContext): Markup {
  const t = settingsStrings(ctx.lang);
  const prefix = 'einstellungen';
  const entered = m.state.problems.length > 0;
  const values = entered
    ? m.state.values
    : {
        email: m.settings.email ?? '',
        sprache: m.settings.language,
        benachrichtigungen: m.settings.optOut ? 'false' : 'true',
      };
  const state = { values, problems: m.state.problems };
  const version = versionFor(ctx, settingsRepresentation(m.person, m.settings));
  const languageProblem = state.problems.find((p) => p.field === 'sprache');
  const labels = { email: t.email, sprache: t.language, benachrichtigungen: t.notices, passwort: t.password };
  const own = ctx.user?.id === m.person.id;
  const passwordProblem = state.problems.find((p) => p.field === 'passwort');
  const described = [`${prefix}-passwort-hinweis`, passwordProblem && `${prefix}-passwort-fehler`]
    .filter(Boolean)
    .join(' ');
  return html`<form class="write" method="post" action="${ctx.links.relative(settingsPath(m.person.slug))}">
    ${hiddenFields(ctx, 'PUT', version)} ${errorSummary(prefix, state, labels, ctx)}
    ${field(prefix, { name: 'email', label: t.email, hint: t.emailHint, maxLength: MAX_EMAIL_LENGTH }, state, ctx)}
    <div class="field${languageProblem ? ' invalid' : ''}">
      <label for="${prefix}-sprache">${t.language}</label>
      <select id="${prefix}-sprache" name="sprache"${
        languageProblem ? html` aria-invalid="true" aria-describedby="${prefix}-sprache-fehler"` : ''
      }>
        ${NOTICE_LANGUAGES.map(
          (l) =>
            html`<option value="${l}"${values.sprache === l ? html` selected` : ''}>${t.languages[l]}</option> `,
        )}
      </select>
      ${
        languageProblem &&
        html`<p class="field-error" id="${prefix}-sprache-fehler">${formStrings(ctx.lang).problem(languageProblem)}</p>`
      }
    </div>
    <div class="field">
      <input id="${prefix}-benachrichtigungen" name="benachrichtigungen" type="checkbox" value="true"${
        values.benachrichtigungen === 'true' ? html` checked` : ''
      } />
      <label for="${prefix}-benachrichtigungen">${t.notices}</label>
    </div>
    ${
      own
        ? html`<div class="field${passwordProblem ? ' invalid' : ''}">
            <label for="${prefix}-passwort">${t.password}</label>
            <input id="${prefix}-passwort" name="passwort" type="password" autocomplete="current-password"${
              passwordProblem ? html` aria-invalid="true"` : ''
            } aria-describedby="${described}" />
            <p class="hint" id="${prefix}-passwort-hinweis">${t.passwordHint}</p>
            ${
              passwordProblem &&
              html`<p class="field-error" id="${prefix}-passwort-fehler">${formStrings(ctx.lang).problem(passwordProblem)}</p>`
            }
          </div>`
        : ''
    }
    <button type="submit">${t.save}</button>
  </form>`;
}

function settingsHtml(m: SettingsModel, ctx: RequestContext): Markup {
  const t = settingsStrings(ctx.lang);
  const title = t.title(fullName(m.person));
  const main = html`<article class="settings">
    <h1>${title}</h1>
    <p>
      ${t.changed}: ${momentHtml(m.settings.updatedAt, ctx.lang)} ·
      <a href="${ctx.links.relative(accountPath(m.person.slug))}">${t.account}</a>
    </p>
    ${settingsForm(m, ctx)}
  </article>`;
  return layout({ title, main, canonicalPath: settingsPath(m.person.slug), section: 'persons' }, ctx);
}

function settingsXml(m: SettingsModel, ctx: RequestContext): Markup {
  const s = m.settings;
  return xml`<einstellungen>
  <konto ref="${ctx.links.absolute(accountPath(m.person.slug))}"/>
  ${s.email !== null ? xml`<email>${s.email}</email>` : ''}
  <sprache>${s.language}</sprache>
  <benachrichtigungen>${s.optOut ? 'false' : 'true'}</benachrichtigungen>
  <geaendert>${s.updatedAt.toISOString()}</geaendert>
</einstellungen>`;
}

function settingsJson(m: SettingsModel, ctx: RequestContext): unknown {
  const s = m.settings;
  return {
    konto: { url: ctx.links.absolute(accountPath(m.person.slug)) },
    email: s.email,
    sprache: s.language,
    benachrichtigungen: !s.optOut,
    geaendert: s.updatedAt.toISOString(),
  };
}

export const settingsView: View<SettingsModel> = { html: settingsHtml, xml: settingsXml, json: settingsJson };

export function settingsRepresentation(
  person: Person,
  settings: Settings,
  state: FormState = EMPTY_FORM,
): Representation<SettingsModel> {
  return {
    model: { person, settings, state },
    view: settingsView,
    canonicalPath: settingsPath(person.slug),
    lastModified: settings.updatedAt,
    schema: 'settings',
    links: [{ rel: 'up', path: accountPath(person.slug) }],
  };
}
