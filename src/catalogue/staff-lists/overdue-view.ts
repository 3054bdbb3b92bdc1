// Overdue loans (`/ausleihen/ueberfaellig`, staff; ADR 0092): open loans at least `tage` days
// overdue, the longest overdue first, with the borrower's card number — a list to work through
// or to print (the stylesheet's print rules leave out the header, navigation and forms).
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout, listTable, pagingHeadLinks, pagingNav } from '../layout/index.ts';
import { daysLate } from '../check-in/index.ts';
import { loanPath, loansPath } from '../loans/index.ts';
import { timeHtml } from '../loans/index.ts';
import type { Page } from '../model.ts';
import type { PageLinks } from '../shared/index.ts';
import { totalHtml, totalJson, totalXml } from '../shared/index.ts';
import { copyPath, fullName, personPath, workPath } from '../shared/index.ts';
import { OVERDUE_PATH } from './paths.ts';
import type { OverdueRow } from './store.ts';
import { staffListStrings } from './strings.ts';

export interface OverdueModel {
  readonly page: Page<OverdueRow>;
  readonly links: PageLinks;
  readonly canonicalPath: string;
  readonly now: Date;
  readonly minDays: number;
}

function rowHtml(r: OverdueRow, m: OverdueModel, ctx: RequestContext): Markup {
  const t = staffListStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  return html`<tr>
    <td data-label="${t.daysOverdue}" class="number">
      <a href="${rel(loanPath(r.person.id, r.loanId))}">${daysLate(r.dueAt, m.now)}</a>
    </td>
    <td data-label="${t.due}">${timeHtml(r.dueAt, ctx)}</td>
    <td data-label="${t.person}">
      <a href="${rel(loansPath(r.person.id))}">${fullName(r.person)}</a>${
        r.cardNumber !== null ? html` <span class="card-number">(${r.cardNumber})</span>` : ''
      }
    </td>
    <td data-label="${t.work}"><a href="${rel(workPath(r.werk.slug))}">${r.werk.titel}</a></td>
    <td data-label="${t.copy}" class="barcode">${r.copy ? html`${r.copy.barcode} (${r.copy.signatur})` : '—'}</td>
    <td data-label="${t.borrowed}">${timeHtml(r.borrowedAt, ctx)}</td>
  </tr>`;
}

function overdueHtml(m: OverdueModel, ctx: RequestContext): Markup {
  const t = staffListStrings(ctx.lang);
  const title = m.minDays > 1 ? t.overdueTitleDays(m.minDays) : t.overdueTitle;
  const main = html`<article class="staff-list overdue-loans">
    <h1>${title}</h1>
    <form class="list-filter" method="get" action="${ctx.links.relative(OVERDUE_PATH)}">
      <label for="tage">${t.minDays}</label>
      <input id="tage" name="tage" type="number" min="1" max="3650" value="${m.minDays}" />
      <button type="submit">${t.filter}</button>
    </form>
    <p class="screen-only">${t.print}</p>
    ${totalHtml(m.page.total, ctx.lang)}
    ${listTable(
      [t.daysOverdue, t.due, t.person, t.work, t.copy, t.borrowed],
      m.page.items.map((r) => rowHtml(r, m, ctx)),
      t.noOverdue,
    )}
    ${pagingNav(m.links, ctx)}
  </article>`;
  return layout(
    {
      title,
      main,
      canonicalPath: m.canonicalPath,
      section: 'overdue-loans',
      headLinks: pagingHeadLinks(m.links),
    },
    ctx,
  );
}

function overdueXml(m: OverdueModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const items = m.page.items.map(
    (r) => xml`
  <ausleihe ref="${abs(loanPath(r.person.id, r.loanId))}">
    <person ref="${abs(personPath(r.person.slug))}"${r.cardNumber !== null ? xml` ausweis="${r.cardNumber}"` : ''}>${fullName(r.person)}</person>
    <ausleihen ref="${abs(loansPath(r.person.id))}"/>
    <werk ref="${abs(workPath(r.werk.slug))}">${r.werk.titel}</werk>${
      r.copy
        ? xml`\n    <exemplar ref="${abs(copyPath(r.werk.slug, r.copy.nummer))}" barcode="${r.copy.barcode}">${r.copy.signatur}</exemplar>`
        : ''
    }
    <ausgeliehen>${r.borrowedAt.toISOString()}</ausgeliehen>
    <faellig>${r.dueAt.toISOString()}</faellig>
    <tageUeberfaellig>${daysLate(r.dueAt, m.now)}</tageUeberfaellig>
  </ausleihe>`,
  );
  return xml`<ueberfaellige-ausleihen>
  <mindestensTage>${m.minDays}</mindestensTage>${totalXml(m.page.total)}${items}${
    m.links.prev ? xml`\n  <vorige ref="${abs(m.links.prev)}"/>` : ''
  }${m.links.next ? xml`\n  <naechste ref="${abs(m.links.next)}"/>` : ''}
</ueberfaellige-ausleihen>`;
}

function overdueJson(m: OverdueModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    mindestensTage: m.minDays,
    ...totalJson(m.page.total),
    ausleihe: m.page.items.map((r) => ({
      url: abs(loanPath(r.person.id, r.loanId)),
      person: { name: fullName(r.person), url: abs(personPath(r.person.slug)), ausweis: r.cardNumber },
      ausleihen: abs(loansPath(r.person.id)),
      werk: { titel: r.werk.titel, url: abs(workPath(r.werk.slug)) },
      exemplar: r.copy
        ? {
            barcode: r.copy.barcode,
            signatur: r.copy.signatur,
            url: abs(copyPath(r.werk.slug, r.copy.nummer)),
          }
        : null,
      ausgeliehen: r.borrowedAt.toISOString(),
      faellig: r.dueAt.toISOString(),
      tageUeberfaellig: daysLate(r.dueAt, m.now),
    })),
    ...(m.links.prev ? { vorige: abs(m.links.prev) } : {}),
    ...(m.links.next ? { naechste: abs(m.links.next) } : {}),
  };
}

export const overdueView: View<OverdueModel> = { html: overdueHtml, xml: overdueXml, json: overdueJson };
