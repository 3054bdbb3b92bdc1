// The patrons (`/leser`, staff; ADR 0092): persons with an account, by name, searchable by
// name or card number; each links the person, their account, their loans and the desk serving
// them. XML and JSON say the same (schemas patrons.xsd / patrons.json).
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout, listTable, pagingHeadLinks, pagingNav } from '../layout/index.ts';
import { accountPath } from '../accounts/index.ts';
import { deskPath } from '../desk/index.ts';
import { loansPath } from '../loans/index.ts';
import type { Page } from '../model.ts';
import type { ListQuery, PageLinks } from '../shared/index.ts';
import { totalHtml, totalJson, totalXml } from '../shared/index.ts';
import { fullName, personPath } from '../shared/index.ts';
import { PATRONS_PATH } from './paths.ts';
import type { PatronRow } from './store.ts';
import { staffListStrings } from './strings.ts';

export interface PatronsModel {
  readonly query: ListQuery;
  readonly page: Page<PatronRow>;
  readonly links: PageLinks;
  readonly canonicalPath: string;
}

function rowHtml(p: PatronRow, ctx: RequestContext): Markup {
  const t = staffListStrings(ctx.lang);
  const rel = (path: string) => ctx.links.relative(path);
  return html`<tr>
    <td data-label="${t.name}"><a href="${rel(personPath(p.slug))}">${fullName(p)}</a></td>
    <td data-label="${t.card}" class="barcode">
      ${p.cardNumber !== null ? html`<a href="${rel(deskPath(p.cardNumber))}">${p.cardNumber}</a>` : t.noCard}
    </td>
    <td data-label="${t.role}">
      <a href="${rel(accountPath(p.slug))}">${t.roles[p.role]}</a>${p.locked ? html` <strong>${t.locked}</strong>` : ''}
    </td>
    <td data-label="${t.openLoans}"><a href="${rel(loansPath(p.id))}">${p.openLoans}</a></td>
  </tr>`;
}

function patronsHtml(m: PatronsModel, ctx: RequestContext): Markup {
  const t = staffListStrings(ctx.lang);
  const title = m.query.q ? t.patronsResults(m.query.q) : t.patronsTitle;
  const main = html`<article class="staff-list patrons">
    <h1>${title}</h1>
    <form class="search search-inline" role="search" aria-label="${t.patronSearch}" method="get" action="${ctx.links.relative(PATRONS_PATH)}">
      <label for="suche-leser">${t.patronSearch}</label>
      <input id="suche-leser" type="search" name="q" value="${m.query.q ?? ''}" />
      <button type="submit">${t.search}</button>
    </form>
    ${totalHtml(m.page.total, ctx.lang)}
    ${listTable(
      [t.name, t.card, t.role, t.openLoans],
      m.page.items.map((p) => rowHtml(p, ctx)),
      t.noPatrons,
    )}
    ${pagingNav(m.links, ctx)}
  </article>`;
  return layout(
    { title, main, canonicalPath: m.canonicalPath, section: 'patrons', headLinks: pagingHeadLinks(m.links) },
    ctx,
  );
}

function patronsXml(m: PatronsModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const items = m.page.items.map(
    (p) => xml`
  <leser ref="${abs(personPath(p.slug))}" rolle="${p.role}" gesperrt="${String(p.locked)}">
    <vorname>${p.vorname}</vorname>
    <nachname>${p.nachname}</nachname>${p.cardNumber !== null ? xml`\n    <ausweis>${p.cardNumber}</ausweis>` : ''}
    <konto ref="${abs(accountPath(p.slug))}"/>
    <ausleihen ref="${abs(loansPath(p.id))}" anzahl="${p.openLoans}"/>${
      p.cardNumber !== null ? xml`\n    <theke ref="${abs(deskPath(p.cardNumber))}"/>` : ''
    }
  </leser>`,
  );
  return xml`<leserliste>${m.query.q ? xml`\n  <suche>${m.query.q}</suche>` : ''}${totalXml(m.page.total)}${items}${
    m.links.prev ? xml`\n  <vorige ref="${abs(m.links.prev)}"/>` : ''
  }${m.links.next ? xml`\n  <naechste ref="${abs(m.links.next)}"/>` : ''}
</leserliste>`;
}

function patronsJson(m: PatronsModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    ...(m.query.q ? { suche: m.query.q } : {}),
    ...totalJson(m.page.total),
    leser: m.page.items.map((p) => ({
      vorname: p.vorname,
      nachname: p.nachname,
      url: abs(personPath(p.slug)),
      ausweis: p.cardNumber,
      rolle: p.role,
      gesperrt: p.locked,
      konto: abs(accountPath(p.slug)),
      ausleihen: { url: abs(loansPath(p.id)), anzahl: p.openLoans },
      theke: p.cardNumber !== null ? abs(deskPath(p.cardNumber)) : null,
    })),
    ...(m.links.prev ? { vorige: abs(m.links.prev) } : {}),
    ...(m.links.next ? { naechste: abs(m.links.next) } : {}),
  };
}

export const patronsView: View<PatronsModel> = { html: patronsHtml, xml: patronsXml, json: patronsJson };

export function patronsRepresentation(model: PatronsModel): Representation<PatronsModel> {
  return { model, view: patronsView, canonicalPath: model.canonicalPath, schema: 'patrons' };
}
