// The item types as staff see and edit them (ADR 0093; schemas `item-types`, `item-type`).
// HTML: the list with a form that creates a type; a type's page with the form that changes it
// and, while no copy has it, the one that deletes it.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import {
  EMPTY_FORM,
  errorSummary,
  field,
  hiddenFields,
  versionFor,
  type FormState,
} from '../writes/index.ts';
import { ITEM_TYPES_PATH, CLOSED_DAYS_PATH, itemTypePath } from './editing-paths.ts';
import type { ItemType } from './editing-store.ts';
import { rulesStrings } from './editing-strings.ts';

type Ctx = RequestContext;

function labels(ctx: Ctx): Record<string, string> {
  const t = rulesStrings(ctx.lang);
  return {
    code: t.code,
    bezeichnung: t.nameDe,
    bezeichnungEn: t.nameEn,
    ausleihbar: t.lendable,
    leihfristTage: t.loanDays,
    verlaengerungen: t.renewals,
    hoechstens: t.maxLoans,
  };
}

export function valuesOf(type: ItemType): Record<string, string> {
  const n = (v: number | null) => (v === null ? '' : String(v));
  return {
    code: type.code,
    bezeichnung: type.nameDe,
    bezeichnungEn: type.nameEn,
    ausleihbar: type.lendable ? 'true' : 'false',
    leihfristTage: n(type.loanDays),
    verlaengerungen: n(type.renewals),
    hoechstens: n(type.maxLoans),
  };
}

/** The fields of a type; `withCode` for the create form (the code is fixed afterwards). */
function typeFields(prefix: string, state: FormState, withCode: boolean, ctx: Ctx): Markup {
  const t = rulesStrings(ctx.lang);
  const l = labels(ctx);
  return html`${errorSummary(prefix, state, l, ctx)}
    ${withCode ? field(prefix, { name: 'code', label: t.code, required: true, hint: t.codeHint, maxLength: 30 }, state, ctx) : ''}
    ${field(prefix, { name: 'bezeichnung', label: t.nameDe, required: true, maxLength: 100 }, state, ctx)}
    ${field(prefix, { name: 'bezeichnungEn', label: t.nameEn, required: true, maxLength: 100 }, state, ctx)}
    <div class="field">
      <input id="${prefix}-ausleihbar" name="ausleihbar" type="checkbox" value="true"${
        state.values.ausleihbar === 'true' ? html` checked` : ''
      } aria-describedby="${prefix}-ausleihbar-hinweis" />
      <label for="${prefix}-ausleihbar">${t.lendable}</label>
      <p class="hint" id="${prefix}-ausleihbar-hinweis">${t.lendableHint}</p>
    </div>
    ${field(prefix, { name: 'leihfristTage', label: t.loanDays, kind: 'numeric', hint: t.defaultHint }, state, ctx)}
    ${field(prefix, { name: 'verlaengerungen', label: t.renewals, kind: 'numeric', hint: t.defaultHint }, state, ctx)}
    ${field(prefix, { name: 'hoechstens', label: t.maxLoans, kind: 'numeric', hint: t.noLimitHint }, state, ctx)}`;
}

const numberOrDefault = (v: number | null, ctx: Ctx) =>
  v === null ? rulesStrings(ctx.lang).standard : String(v);

// --- the list -------------------------------------------------------------------------------

export interface ItemTypesModel {
  readonly types: readonly ItemType[];
  readonly state: FormState;
}

function itemTypesHtml(m: ItemTypesModel, ctx: Ctx): Markup {
  const t = rulesStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const main = html`<h1>${t.itemTypesTitle}</h1>
    <p><a href="${rel(CLOSED_DAYS_PATH)}">${t.closedDaysTitle}</a></p>
    <table class="item-types">
      <thead>
        <tr>
          <th scope="col">${t.code}</th>
          <th scope="col">${t.nameDe}</th>
          <th scope="col">${t.lendable}</th>
          <th scope="col">${t.loanDays}</th>
          <th scope="col">${t.renewals}</th>
          <th scope="col">${t.maxLoans}</th>
          <th scope="col">${t.copies}</th>
        </tr>
      </thead>
      <tbody>
        ${m.types.map(
          (type) => html`<tr>
            <td><a href="${rel(itemTypePath(type.code))}">${type.code}</a></td>
            <td>${ctx.lang === 'en' ? type.nameEn : type.nameDe}</td>
            <td>${type.lendable ? t.yes : t.no}</td>
            <td>${numberOrDefault(type.loanDays, ctx)}</td>
            <td>${numberOrDefault(type.renewals, ctx)}</td>
            <td>${type.maxLoans ?? t.none}</td>
            <td>${type.copies}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    <section aria-labelledby="medientyp-neu-ueberschrift">
      <h2 id="medientyp-neu-ueberschrift">${t.newItemType}</h2>
      <form class="write" method="post" action="${rel(ITEM_TYPES_PATH)}">
        ${hiddenFields(ctx, 'POST', null)} ${typeFields('medientyp-neu', m.state, true, ctx)}
        <button type="submit">${t.create}</button>
      </form>
    </section>`;
  return layout({ title: t.itemTypesTitle, main, canonicalPath: ITEM_TYPES_PATH, section: 'rules' }, ctx);
}

function typeXml(type: ItemType, ctx: Ctx): Markup {
  return xml`<medientyp ref="${ctx.links.absolute(itemTypePath(type.code))}">
    <code>${type.code}</code>
    <bezeichnung>${type.nameDe}</bezeichnung>
    <bezeichnungEn>${type.nameEn}</bezeichnungEn>
    <ausleihbar>${type.lendable ? 'true' : 'false'}</ausleihbar>
    ${type.loanDays === null ? '' : xml`<leihfristTage>${type.loanDays}</leihfristTage>`}
    ${type.renewals === null ? '' : xml`<verlaengerungen>${type.renewals}</verlaengerungen>`}
    ${type.maxLoans === null ? '' : xml`<hoechstens>${type.maxLoans}</hoechstens>`}
    <exemplare>${type.copies}</exemplare>
    <geaendert>${type.updatedAt.toISOString()}</geaendert>
  </medientyp>`;
}

function typeJson(type: ItemType, ctx: Ctx) {
  return {
    url: ctx.links.absolute(itemTypePath(type.code)),
    code: type.code,
    bezeichnung: type.nameDe,
    bezeichnungEn: type.nameEn,
    ausleihbar: type.lendable,
    leihfristTage: type.loanDays,
    verlaengerungen: type.renewals,
    hoechstens: type.maxLoans,
    exemplare: type.copies,
    geaendert: type.updatedAt.toISOString(),
  };
}

export const itemTypesView: View<ItemTypesModel> = {
  html: itemTypesHtml,
  xml: (m, ctx) => xml`<medientypen>${m.types.map((type) => typeXml(type, ctx))}</medientypen>`,
  json: (m, ctx) => ({ medientypen: m.types.map((type) => typeJson(type, ctx)) }),
};

export function itemTypesRepresentation(
  types: readonly ItemType[],
  state: FormState = EMPTY_FORM,
): Representation<ItemTypesModel> {
  return {
    model: { types, state },
    view: itemTypesView,
    canonicalPath: ITEM_TYPES_PATH,
    schema: 'item-types',
  };
}

// --- one type -------------------------------------------------------------------------------

export interface ItemTypeModel {
  readonly type: ItemType;
  readonly state?: FormState;
}

function itemTypeHtml(m: ItemTypeModel, ctx: Ctx): Markup {
  const t = rulesStrings(ctx.lang);
  const type = m.type;
  const path = itemTypePath(type.code);
  const title = t.itemTypeTitle(ctx.lang === 'en' ? type.nameEn : type.nameDe);
  const version = versionFor(ctx, itemTypeRepresentation(type));
  const state = m.state ?? { values: valuesOf(type), problems: [] };
  const main = html`<h1>${title}</h1>
    <p><a href="${ctx.links.relative(ITEM_TYPES_PATH)}">${t.itemTypesTitle}</a></p>
    <dl class="facts">
      <dt>${t.code}</dt>
      <dd>${type.code}</dd>
      <dt>${t.copies}</dt>
      <dd>${type.copies}</dd>
    </dl>
    <form class="write" method="post" action="${ctx.links.relative(path)}">
      ${hiddenFields(ctx, 'PUT', version)} ${typeFields('medientyp', state, false, ctx)}
      <button type="submit">${t.save}</button>
    </form>
    ${
      type.copies > 0
        ? html`<p class="in-use">${t.inUse(type.copies)}</p>`
        : html`<form class="delete" method="post" action="${ctx.links.relative(path)}">
            ${hiddenFields(ctx, 'DELETE', version)}
            <button type="submit">${t.deleteType}</button>
          </form>`
    }`;
  return layout({ title, main, canonicalPath: path, section: 'rules' }, ctx);
}

export const itemTypeView: View<ItemTypeModel> = {
  html: itemTypeHtml,
  xml: (m, ctx) => typeXml(m.type, ctx),
  json: (m, ctx) => typeJson(m.type, ctx),
};

export function itemTypeRepresentation(type: ItemType, state?: FormState): Representation<ItemTypeModel> {
  return {
    model: { type, ...(state && { state }) },
    view: itemTypeView,
    canonicalPath: itemTypePath(type.code),
    lastModified: type.updatedAt,
    schema: 'item-type',
    links: [{ rel: 'up', path: ITEM_TYPES_PATH }],
  };
}
