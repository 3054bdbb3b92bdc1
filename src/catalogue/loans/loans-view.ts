// A person's current loans (`/ausleihen/{user_id}`): each with its work (title + link), loan
// date and due date. The HTML page also offers a return button per loan and a borrow form.
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout, loansTable } from '../layout/index.ts';
import type { PersonRef } from '../model.ts';
import { fullName, personPath, workPath } from '../shared/index.ts';
import { loanPath, loansPath } from './access.ts';
import { holdsPath } from '../holds/index.ts';
import {
  copyHtml,
  copyJson,
  copyXml,
  isOverdue,
  loanInstants,
  mayReturn,
  overdueHtml,
  renewForm,
  returnAtDeskHtml,
  returnForm,
  timeHtml,
} from './loan-view.ts';
import type { Loan } from './model.ts';
import { loanStrings } from './strings.ts';
import { DEFAULT_OVERDUE_BLOCK_DAYS } from './overdue.ts';
import { lendingStrings } from './lending-strings.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface LoansModel {
  readonly person: PersonRef;
  readonly items: readonly Loan[];
  readonly now: Date;
  /** Loan period in days, for the hint beside the borrow form. */
  readonly loanDays: number;
  /** Members may return their own loans (SHELFMARK_MEMBER_RETURNS); else only staff see the buttons. */
  readonly memberReturns?: boolean;
  /** Days overdue that block borrowing (ADR 0061): past them the page says so instead of the form. */
  readonly overdueBlockDays?: number;
  /** Renewals allowed per loan (ADR 0060): no renew button once they are used up. */
  readonly maxRenewals?: number;
}

function borrowForm(m: LoansModel, ctx: RequestContext): Markup {
  const t = loanStrings(ctx.lang);
  return html`<section class="borrow">
    <h2>${t.borrowHeading}</h2>
    <form method="post" action="${ctx.links.relative(loansPath(m.person.id))}">
      ${ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : ''}
      <p>
        <label for="werk">${t.borrowLabel}</label>
        <input id="werk" name="werk" type="text" required maxlength="2048" autocomplete="off" />
        <button type="submit">${t.borrowButton}</button>
      </p>
      <p class="hint">${t.borrowHint(m.loanDays)}</p>
    </form>
  </section>`;
}

/** A loan overdue by more than the blocking days: the store would refuse a borrow (409). */
function blocked(m: LoansModel): boolean {
  const limit = m.now.getTime() - (m.overdueBlockDays ?? DEFAULT_OVERDUE_BLOCK_DAYS) * DAY_MS;
  return m.items.some((loan) => loan.returnedAt === null && loan.dueAt.getTime() < limit);
}

/**
 * The instants at which the list changes with the clock (ADR 0067): each loan falls due, and
 * blocks borrowing once overdue by more than the blocking days (the form gives way to a note).
 */
export function loansInstants(m: LoansModel): Date[] {
  const blockMs = (m.overdueBlockDays ?? DEFAULT_OVERDUE_BLOCK_DAYS) * DAY_MS;
  return m.items.flatMap((loan) =>
    loanInstants(loan).flatMap((due) => [due, new Date(due.getTime() + blockMs)]),
  );
}

function blockedHtml(m: LoansModel, ctx: RequestContext): Markup {
  const days = m.overdueBlockDays ?? DEFAULT_OVERDUE_BLOCK_DAYS;
  return html`<section class="borrow blocked">
    <h2>${loanStrings(ctx.lang).borrowHeading}</h2>
    <p class="overdue-block">${lendingStrings(ctx.lang).overdueBlocks(days)}</p>
  </section>`;
}

function loansHtml(m: LoansModel, ctx: RequestContext): Markup {
  const t = loanStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const name = fullName(m.person);
  const forms = ctx.user !== null;
  const returns = mayReturn(ctx, m.memberReturns);
  const rows = m.items.map(
    (loan) => html`<tr${isOverdue(loan, m.now) ? html` class="overdue"` : ''}>
      <td data-label="${t.work}"><a href="${rel(workPath(loan.werk.slug))}">${loan.werk.titel}</a></td>
      <td data-label="${t.copy}">${copyHtml(loan, ctx)}</td>
      <td data-label="${t.borrowed}">
        <a href="${rel(loanPath(loan.person.id, loan.id))}">${timeHtml(loan.borrowedAt, ctx)}</a>
      </td>
      <td data-label="${t.due}">${timeHtml(loan.dueAt, ctx)}${overdueHtml(isOverdue(loan, m.now), ctx)}</td>
      <td data-label="${t.renewals}">${loan.renewals ?? 0}</td>
      ${forms ? html`<td class="actions">${renewForm(loan, ctx, m.maxRenewals)} ${returns ? returnForm(loan, m.now, ctx) : ''}</td>` : ''}
    </tr> `,
  );
  const main = html`<article class="loans">
    <h1>${t.listTitle(name)}</h1>
    <p>
      <a href="${rel(personPath(m.person.slug))}">${name}</a> ·
      <a href="${rel(holdsPath(m.person.slug))}">${t.holdsLink}</a>
    </p>
    ${
      m.items.length > 0
        ? loansTable([t.work, t.copy, t.borrowed, t.due, t.renewals, ...(forms ? [t.actions] : [])], rows)
        : html`<p>${t.none}</p>`
    }
    ${forms && !returns && m.items.length > 0 ? returnAtDeskHtml(ctx) : ''}
    ${forms ? (blocked(m) ? blockedHtml(m, ctx) : borrowForm(m, ctx)) : ''}
  </article>`;
  return layout({ title: t.listTitle(name), main, canonicalPath: loansPath(m.person.id) }, ctx);
}

function loansXml(m: LoansModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const items = m.items.map(
    (loan) => xml`
  <ausleihe ref="${abs(loanPath(loan.person.id, loan.id))}">
    <werk ref="${abs(workPath(loan.werk.slug))}">${loan.werk.titel}</werk>${copyXml(loan, ctx, '    ')}
    <ausgeliehen>${loan.borrowedAt.toISOString()}</ausgeliehen>
    <faellig>${loan.dueAt.toISOString()}</faellig>
    <ueberfaellig>${String(isOverdue(loan, m.now))}</ueberfaellig>
    <verlaengerungen>${loan.renewals ?? 0}</verlaengerungen>
  </ausleihe>`,
  );
  return xml`<ausleihen>
  <person ref="${abs(personPath(m.person.slug))}">${fullName(m.person)}</person>${items}
</ausleihen>`;
}

function loansJson(m: LoansModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    person: { name: fullName(m.person), url: abs(personPath(m.person.slug)) },
    ausleihe: m.items.map((loan) => ({
      url: abs(loanPath(loan.person.id, loan.id)),
      werk: { titel: loan.werk.titel, url: abs(workPath(loan.werk.slug)) },
      ...copyJson(loan, ctx),
      ausgeliehen: loan.borrowedAt.toISOString(),
      faellig: loan.dueAt.toISOString(),
      ueberfaellig: isOverdue(loan, m.now),
      verlaengerungen: loan.renewals ?? 0,
    })),
  };
}

export const loansView: View<LoansModel> = { html: loansHtml, xml: loansXml, json: loansJson };
