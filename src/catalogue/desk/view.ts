// The desk's lending page (`/theke`, staff; ADR 0082): first the patron (card number or name),
// then one barcode after another, each lent at once; the patron's open loans below. Every
// refusal shows the same page again with the message beside the field, the field focused
// (autofocus), so the desk never falls out of its flow. XML and JSON say the same (schemas
// desk.xsd / desk.json).
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import { accountPath } from '../accounts/index.ts';
import { loanPath, loansPath, timeHtml } from '../loans/index.ts';
import type { Loan } from '../loans/index.ts';
import { copyPath, fullName, personPath, workPath } from '../shared/index.ts';
import { DESK_PATH, deskPath } from './paths.ts';
import { HOLD_SHELF_PATH, OVERDUE_PATH, PATRONS_PATH } from '../staff-lists/index.ts';
import { NOTICES_PATH } from '../notices/index.ts';
import type { Patron } from './store.ts';
import { deskStrings } from './strings.ts';

export interface DeskModel {
  /** The patron being served; null: the card form (and maybe the name search's matches). */
  readonly patron: Patron | null;
  /** The patron's open loans, oldest first. */
  readonly loans: readonly Loan[];
  /** What was searched for (`?ausweis=`) when it named no card; matches below. */
  readonly query?: string;
  readonly matches?: readonly Patron[];
  /** The loan just made (`?ausgeliehen=`), shown as a confirmation. */
  readonly lent?: Loan;
  /** A refusal to show beside its field (the status is the problem's: 409 or 422). */
  readonly problem?: {
    readonly field: 'ausweis' | 'barcode';
    readonly value: string;
    readonly message: string;
  };
}

function csrf(ctx: RequestContext): Markup | string {
  return ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : '';
}

/** A text field the scanner types into: focused on every rendering of the page. */
function scanField(name: 'ausweis' | 'barcode', label: string, m: DeskModel, value: string): Markup {
  const problem = m.problem?.field === name ? m.problem : undefined;
  return html`<label for="${name}">${label}</label>
    <input
      id="${name}"
      name="${name}"
      type="text"
      required
      maxlength="${name === 'ausweis' ? 100 : 64}"
      autocomplete="off"
      autofocus
      value="${problem?.value ?? value}"
      ${problem ? html`aria-invalid="true" aria-describedby="${name}-problem"` : ''}
    />`;
}

function problemHtml(m: DeskModel, field: 'ausweis' | 'barcode'): Markup | string {
  return m.problem?.field === field
    ? html`<p class="problem" id="${field}-problem" role="alert">${m.problem.message}</p>`
    : '';
}

function cardForm(m: DeskModel, ctx: RequestContext): Markup {
  const t = deskStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const matches = m.matches ?? [];
  return html`<form class="desk-card" method="get" action="${rel(DESK_PATH)}">
      <p>${t.cardIntro}</p>
      <p>
        ${scanField('ausweis', t.cardLabel, m, m.query ?? '')}
        <button type="submit">${t.cardButton}</button>
      </p>
      ${problemHtml(m, 'ausweis')}
    </form>
    ${
      matches.length > 0
        ? html`<section class="matches">
            <h2>${t.matchesTitle}</h2>
            <ul>
              ${matches.map(
                (p) =>
                  html`<li>
                    <a href="${rel(deskPath(p.cardNumber))}">${fullName(p)}</a>
                    <span class="card">(${t.cardNumber} ${p.cardNumber})</span>
                  </li>`,
              )}
            </ul>
          </section>`
        : ''
    }`;
}

function loansHtml(m: DeskModel, ctx: RequestContext): Markup {
  const t = deskStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  if (m.loans.length === 0) return html`<p>${t.noLoans}</p>`;
  return html`<table class="loans">
    <thead>
      <tr>
        <th scope="col">${t.work}</th>
        <th scope="col">${t.copy}</th>
        <th scope="col">${t.due}</th>
      </tr>
    </thead>
    <tbody>
      ${m.loans.map(
        (l) => html`<tr${m.lent?.id === l.id ? html` class="just-lent"` : ''}>
          <td data-label="${t.work}"><a href="${rel(loanPath(l.person.id, l.id))}">${l.werk.titel}</a></td>
          <td data-label="${t.copy}" class="barcode">${l.copy ? l.copy.barcode : '—'}</td>
          <td data-label="${t.due}">${timeHtml(l.dueAt, ctx)}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

function patronHtml(p: Patron, m: DeskModel, ctx: RequestContext): Markup {
  const t = deskStrings(ctx.lang);
  const rel = (a: string) => ctx.links.relative(a);
  return html`<p class="patron">
      <a href="${rel(personPath(p.slug))}">${fullName(p)}</a>,
      ${t.cardNumber} <span class="card">${p.cardNumber}</span> &#183;
      <a href="${rel(accountPath(p.slug))}">${t.account}</a> &#183;
      <a href="${rel(DESK_PATH)}">${t.otherPatron}</a>
    </p>
    ${
      m.lent
        ? html`<p class="result" role="status">
            ${t.lent(m.lent.werk.titel, m.lent.copy?.barcode ?? '')} ${t.due} ${timeHtml(m.lent.dueAt, ctx)}.
          </p>`
        : ''
    }
    <form class="desk-lend" method="post" action="${rel(DESK_PATH)}">
      ${csrf(ctx)}
      <input type="hidden" name="ausweis" value="${p.cardNumber}" />
      <p>${t.barcodeIntro}</p>
      <p>
        ${scanField('barcode', t.barcode, m, '')}
        <button type="submit">${t.lendButton}</button>
      </p>
      ${problemHtml(m, 'barcode')}
    </form>
    <section class="patron-loans">
      <h2>${t.loansTitle}</h2>
      ${loansHtml(m, ctx)}
      <p><a href="${rel(loansPath(p.id))}">${t.allLoans}</a></p>
    </section>`;
}

/** The lists a desk works through (ADR 0092). */
function listsHtml(ctx: RequestContext): Markup {
  const t = deskStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  return html`<nav class="desk-lists" aria-label="${t.listsLabel}">
    <h2>${t.listsLabel}</h2>
    <ul>
      <li><a href="${rel(PATRONS_PATH)}">${t.patronsList}</a></li>
      <li><a href="${rel(HOLD_SHELF_PATH)}">${t.holdShelfList}</a></li>
      <li><a href="${rel(OVERDUE_PATH)}">${t.overdueList}</a></li>
      <li><a href="${rel(NOTICES_PATH)}">${t.noticesList}</a></li>
    </ul>
  </nav>`;
}

function deskHtml(m: DeskModel, ctx: RequestContext): Markup {
  const t = deskStrings(ctx.lang);
  const title = m.patron ? t.patronTitle(fullName(m.patron)) : t.title;
  const main = html`<article class="desk">
    <h1>${title}</h1>
    ${m.patron ? patronHtml(m.patron, m, ctx) : cardForm(m, ctx)}
    ${listsHtml(ctx)}
  </article>`;
  return layout({ title, main, canonicalPath: canonicalOf(m), section: 'desk' }, ctx);
}

function loanXml(l: Loan, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  return xml`
    <ausleihe ref="${abs(loanPath(l.person.id, l.id))}">
      <werk ref="${abs(workPath(l.werk.slug))}">${l.werk.titel}</werk>
      ${l.copy ? xml`<exemplar ref="${abs(copyPath(l.werk.slug, l.copy.nummer))}">${l.copy.barcode}</exemplar>` : ''}
      <faellig>${l.dueAt.toISOString()}</faellig>
    </ausleihe>`;
}

function deskXml(m: DeskModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const p = m.patron;
  const person = p
    ? xml`
  <person ref="${abs(personPath(p.slug))}" ausweis="${p.cardNumber}" ausleihen="${abs(loansPath(p.id))}">${fullName(p)}</person>
  <ausleihen>${m.loans.map((l) => loanXml(l, ctx))}
  </ausleihen>`
    : '';
  const matches = (m.matches ?? []).map(
    (x) => xml`
    <person ref="${abs(deskPath(x.cardNumber))}" ausweis="${x.cardNumber}">${fullName(x)}</person>`,
  );
  return xml`<theke>${person}${
    m.matches
      ? xml`
  <treffer>${matches}
  </treffer>`
      : ''
  }
</theke>`;
}

function loanJson(l: Loan, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    url: abs(loanPath(l.person.id, l.id)),
    werk: { titel: l.werk.titel, url: abs(workPath(l.werk.slug)) },
    exemplar: l.copy ? { barcode: l.copy.barcode, url: abs(copyPath(l.werk.slug, l.copy.nummer)) } : null,
    faellig: l.dueAt.toISOString(),
  };
}

function deskJson(m: DeskModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  const p = m.patron;
  return {
    person: p
      ? {
          name: fullName(p),
          url: abs(personPath(p.slug)),
          ausweis: p.cardNumber,
          ausleihen: abs(loansPath(p.id)),
        }
      : null,
    ausleihen: m.loans.map((l) => loanJson(l, ctx)),
    treffer: (m.matches ?? []).map((x) => ({
      name: fullName(x),
      ausweis: x.cardNumber,
      url: abs(deskPath(x.cardNumber)),
    })),
  };
}

export const deskView: View<DeskModel> = { html: deskHtml, xml: deskXml, json: deskJson };

function canonicalOf(m: DeskModel): string {
  if (m.patron) return deskPath(m.patron.cardNumber);
  return m.query ? `${DESK_PATH}?ausweis=${encodeURIComponent(m.query)}` : DESK_PATH;
}

export function deskRepresentation(model: DeskModel): Representation<DeskModel> {
  return { model, view: deskView, canonicalPath: canonicalOf(model), schema: 'desk' };
}
