// The staff page of open loans (`/ausleihen`), earliest due date first, overdue ones marked.
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout, loansTable } from '../layout/index.ts';
import { fullName, personPath, workPath } from '../shared/index.ts';
import { DUE_PATH, loanPath, loansPath } from './access.ts';
import { copyHtml, copyJson, copyXml, isOverdue, loanInstants, overdueHtml, timeHtml } from './loan-view.ts';
import type { Loan } from './model.ts';
import { loanStrings } from './strings.ts';

export interface DueModel {
  readonly items: readonly Loan[];
  readonly now: Date;
}

/** The instants at which the list changes with the clock: each loan falls due (ADR 0067). */
export function dueInstants(m: DueModel): Date[] {
  return m.items.flatMap(loanInstants);
}

function dueHtml(m: DueModel, ctx: RequestContext): Markup {
  const t = loanStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const rows = m.items.map((loan) => {
    const overdue = isOverdue(loan, m.now);
    return html`<tr${overdue ? html` class="overdue"` : ''}>
      <td data-label="${t.due}">
        <a href="${rel(loanPath(loan.person.id, loan.id))}">${timeHtml(loan.dueAt, ctx)}</a>${overdueHtml(overdue, ctx)}
      </td>
      <td data-label="${t.work}"><a href="${rel(workPath(loan.werk.slug))}">${loan.werk.titel}</a></td>
      <td data-label="${t.copy}">${copyHtml(loan, ctx)}</td>
      <td data-label="${t.person}"><a href="${rel(loansPath(loan.person.id))}">${fullName(loan.person)}</a></td>
      <td data-label="${t.borrowed}">${timeHtml(loan.borrowedAt, ctx)}</td>
    </tr> `;
  });
  const main = html`<article class="loans-due">
    <h1>${t.dueTitle}</h1>
    ${
      m.items.length > 0
        ? loansTable([t.due, t.work, t.copy, t.person, t.borrowed], rows)
        : html`<p>${t.noneDue}</p>`
    }
  </article>`;
  return layout({ title: t.dueTitle, main, canonicalPath: DUE_PATH, section: 'due-loans' }, ctx);
}

function dueXml(m: DueModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const items = m.items.map(
    (loan) => xml`
  <ausleihe ref="${abs(loanPath(loan.person.id, loan.id))}">
    <person ref="${abs(personPath(loan.person.slug))}">${fullName(loan.person)}</person>
    <ausleihen ref="${abs(loansPath(loan.person.id))}"/>
    <werk ref="${abs(workPath(loan.werk.slug))}">${loan.werk.titel}</werk>${copyXml(loan, ctx, '    ')}
    <ausgeliehen>${loan.borrowedAt.toISOString()}</ausgeliehen>
    <faellig>${loan.dueAt.toISOString()}</faellig>
    <ueberfaellig>${String(isOverdue(loan, m.now))}</ueberfaellig>
  </ausleihe>`,
  );
  return items.length > 0
    ? xml`<faellige-ausleihen>${items}\n</faellige-ausleihen>`
    : xml`<faellige-ausleihen/>`;
}

function dueJson(m: DueModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    ausleihe: m.items.map((loan) => ({
      url: abs(loanPath(loan.person.id, loan.id)),
      person: { name: fullName(loan.person), url: abs(personPath(loan.person.slug)) },
      ausleihen: abs(loansPath(loan.person.id)),
      werk: { titel: loan.werk.titel, url: abs(workPath(loan.werk.slug)) },
      ...copyJson(loan, ctx),
      ausgeliehen: loan.borrowedAt.toISOString(),
      faellig: loan.dueAt.toISOString(),
      ueberfaellig: isOverdue(loan, m.now),
    })),
  };
}

export const dueView: View<DueModel> = { html: dueHtml, xml: dueXml, json: dueJson };
