// The hold shelf (`/abholregal`, staff; ADR 0092): which copy is kept, for whom, until when; the
// one to run out first first, those past their pickup date flagged. XML and JSON say the same
// (schemas hold-shelf.xsd / hold-shelf.json).
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout, listTable, pagingHeadLinks, pagingNav } from '../layout/index.ts';
import { holdPath } from '../holds/index.ts';
import { timeHtml } from '../loans/index.ts';
import type { Page } from '../model.ts';
import type { PageLinks } from '../shared/index.ts';
import { totalHtml, totalJson, totalXml } from '../shared/index.ts';
import { copyPath, fullName, personPath, workPath } from '../shared/index.ts';
import type { ShelfRow } from './store.ts';
import { staffListStrings } from './strings.ts';

export interface HoldShelfModel {
  readonly page: Page<ShelfRow>;
  readonly links: PageLinks;
  readonly canonicalPath: string;
  readonly now: Date;
}

const isExpired = (r: ShelfRow, now: Date): boolean => r.expiresAt.getTime() <= now.getTime();

function rowHtml(r: ShelfRow, m: HoldShelfModel, ctx: RequestContext): Markup {
  const t = staffListStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const expired = isExpired(r, m.now);
  return html`<tr${expired ? html` class="overdue"` : ''}>
    <td data-label="${t.copy}" class="barcode">
      <a href="${rel(copyPath(r.werk.slug, r.copy.nummer))}">${r.copy.barcode}</a> (${r.copy.signatur})
    </td>
    <td data-label="${t.work}"><a href="${rel(workPath(r.werk.slug))}">${r.werk.titel}</a></td>
    <td data-label="${t.forWhom}"><a href="${rel(holdPath(r.person.slug, r.holdId))}">${fullName(r.person)}</a></td>
    <td data-label="${t.readySince}">${timeHtml(r.readyAt, ctx)}</td>
    <td data-label="${t.until}">
      ${timeHtml(r.expiresAt, ctx)}${expired ? html` <strong class="overdue">${t.expired}</strong>` : ''}
    </td>
  </tr>`;
}

function shelfHtml(m: HoldShelfModel, ctx: RequestContext): Markup {
  const t = staffListStrings(ctx.lang);
  const anyExpired = m.page.items.some((r) => isExpired(r, m.now));
  const main = html`<article class="staff-list hold-shelf">
    <h1>${t.shelfTitle}</h1>
    <p>${t.shelfIntro}</p>
    ${totalHtml(m.page.total, ctx.lang)}
    ${listTable(
      [t.copy, t.work, t.forWhom, t.readySince, t.until],
      m.page.items.map((r) => rowHtml(r, m, ctx)),
      t.noShelf,
    )}
    ${anyExpired ? html`<p class="hint">${t.expiredHint}</p>` : ''}
    ${pagingNav(m.links, ctx)}
  </article>`;
  return layout(
    {
      title: t.shelfTitle,
      main,
      canonicalPath: m.canonicalPath,
      section: 'hold-shelf',
      headLinks: pagingHeadLinks(m.links),
    },
    ctx,
  );
}

function shelfXml(m: HoldShelfModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const items = m.page.items.map(
    (r) => xml`
  <exemplar ref="${abs(copyPath(r.werk.slug, r.copy.nummer))}" barcode="${r.copy.barcode}">
    <signatur>${r.copy.signatur}</signatur>
    <werk ref="${abs(workPath(r.werk.slug))}">${r.werk.titel}</werk>
    <person ref="${abs(personPath(r.person.slug))}">${fullName(r.person)}</person>
    <vormerkung ref="${abs(holdPath(r.person.slug, r.holdId))}"/>
    <bereit>${r.readyAt.toISOString()}</bereit>
    <abholbarBis>${r.expiresAt.toISOString()}</abholbarBis>
    <abgelaufen>${String(isExpired(r, m.now))}</abgelaufen>
  </exemplar>`,
  );
  return xml`<abholregal>${totalXml(m.page.total)}${items}${
    m.links.prev ? xml`\n  <vorige ref="${abs(m.links.prev)}"/>` : ''
  }${m.links.next ? xml`\n  <naechste ref="${abs(m.links.next)}"/>` : ''}
</abholregal>`;
}

function shelfJson(m: HoldShelfModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    ...totalJson(m.page.total),
    exemplar: m.page.items.map((r) => ({
      url: abs(copyPath(r.werk.slug, r.copy.nummer)),
      barcode: r.copy.barcode,
      signatur: r.copy.signatur,
      werk: { titel: r.werk.titel, url: abs(workPath(r.werk.slug)) },
      person: { name: fullName(r.person), url: abs(personPath(r.person.slug)) },
      vormerkung: abs(holdPath(r.person.slug, r.holdId)),
      bereit: r.readyAt.toISOString(),
      abholbarBis: r.expiresAt.toISOString(),
      abgelaufen: isExpired(r, m.now),
    })),
    ...(m.links.prev ? { vorige: abs(m.links.prev) } : {}),
    ...(m.links.next ? { naechste: abs(m.links.next) } : {}),
  };
}

export const holdShelfView: View<HoldShelfModel> = { html: shelfHtml, xml: shelfXml, json: shelfJson };
