// One loan (`/ausleihen/{user_id}/{loan_id}`): its work, borrower, dates and whether it is
// overdue. Dates are ISO 8601 UTC timestamps in XML/JSON, readable dates in HTML.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import { copyPath, fullName, personPath, workPath, clockChanges, freshUntilField } from '../shared/index.ts';
import { loanPath, loansPath, renewalPath } from './access.ts';
import type { Loan } from './model.ts';
import { dateText, loanStrings } from './strings.ts';
import { lendingStrings } from './lending-strings.ts';
import { MAX_RENEWALS } from './renew.ts';

/** A loan as shown at a moment: `overdue` depends on the clock, not only on the row. */
export interface LoanModel {
  readonly loan: Loan;
  /** The moment the representation was made (the clock of the request). */
  readonly now: Date;
  readonly overdue: boolean;
  /** Members may return their own loans (SHELFMARK_MEMBER_RETURNS); else only staff see the button. */
  readonly memberReturns?: boolean;
  /** Renewals allowed per loan (ADR 0060): no renew button once they are used up. */
  readonly maxRenewals?: number;
}

export const isOverdue = (loan: Loan, now: Date): boolean =>
  loan.returnedAt === null && loan.dueAt.getTime() < now.getTime();

/**
 * When the representation last changed: the borrow, or the moment it became overdue (so that
 * If-Modified-Since never keeps a stale "not overdue" alive).
 */
export function loanChangedAt(loan: Loan, now: Date): Date {
  const changed = loan.renewedAt ?? loan.borrowedAt; // a renewal moves the due date (ADR 0060)
  return isOverdue(loan, now) && loan.dueAt > changed ? loan.dueAt : changed;
}

/** The instants at which what an open loan shows changes with the clock: it falls due (ADR 0067). */
export function loanInstants(loan: Loan): Date[] {
  return loan.returnedAt === null ? [loan.dueAt] : [];
}

/**
 * The renew button (ADR 0060): a plain POST form; the server says why when it refuses. No
 * button once the renewals are used up (a button that can only answer 409 is a trap); the
 * limit is said instead. (A hold by another member is only known to the server's check.)
 */
export function renewForm(loan: Loan, ctx: RequestContext, maxRenewals = MAX_RENEWALS): Markup {
  const t = loanStrings(ctx.lang);
  if ((loan.renewals ?? 0) >= maxRenewals)
    return html`<p class="renew-limit">${t.renewLimitReached(maxRenewals)}</p>`;
  return html`<form class="renew" method="post" action="${ctx.links.relative(renewalPath(loan.person.id, loan.id))}">
    ${ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : ''}
    <button type="submit" aria-label="${t.renewLabel(loan.werk.titel)}">${t.renewButton}</button>
  </form>`;
}

export function loanRepresentation(
  loan: Loan,
  now: Date,
  opts: { readonly memberReturns?: boolean; readonly maxRenewals?: number } = {},
): Representation<LoanModel> {
  return {
    model: {
      loan,
      now,
      overdue: isOverdue(loan, now),
      memberReturns: opts.memberReturns ?? false,
      ...(opts.maxRenewals !== undefined && { maxRenewals: opts.maxRenewals }),
    },
    view: loanView,
    canonicalPath: loanPath(loan.person.id, loan.id),
    lastModified: loanChangedAt(loan, now),
    // Not yet overdue: the representation cache serves it until it falls due (ADR 0067).
    ...freshUntilField(clockChanges(loanInstants(loan), now).freshUntil),
    schema: 'loan',
  };
}

/** The copy lent, linked to its URL; a loan without a copy (tools before issue 12) shows a dash. */
export function copyHtml(loan: Loan, ctx: RequestContext): Markup {
  if (loan.copy === null) return html`–`;
  return html`<a class="signatur" href="${ctx.links.relative(copyPath(loan.werk.slug, loan.copy.nummer))}">${loan.copy.signatur}</a>`;
}

/** `<exemplar ref="copy URL">signatur</exemplar>`, or nothing for a loan without a copy. */
export function copyXml(loan: Loan, ctx: RequestContext, indent: string): Markup | string {
  if (loan.copy === null) return '';
  return xml`
${indent}<exemplar ref="${ctx.links.absolute(copyPath(loan.werk.slug, loan.copy.nummer))}">${loan.copy.signatur}</exemplar>`;
}

/** `exemplar: {signatur, url}` for JSON, or nothing for a loan without a copy. */
export function copyJson(loan: Loan, ctx: RequestContext): { exemplar?: { signatur: string; url: string } } {
  if (loan.copy === null) return {};
  return {
    exemplar: {
      signatur: loan.copy.signatur,
      url: ctx.links.absolute(copyPath(loan.werk.slug, loan.copy.nummer)),
    },
  };
}

export function timeHtml(date: Date, ctx: RequestContext): Markup {
  return html`<time datetime="${date.toISOString()}">${dateText(date, ctx.lang)}</time>`;
}

export function overdueHtml(overdue: boolean, ctx: RequestContext): Markup | string {
  return overdue ? html` <strong class="overdue">${loanStrings(ctx.lang).overdue}</strong>` : '';
}

/**
 * Whether this viewer gets a return button: staff always; the borrower only when members may
 * return their own loans (ADR 0061) — a button that can only answer 403 is not offered.
 */
export function mayReturn(ctx: RequestContext, memberReturns: boolean | undefined): boolean {
  if (ctx.user === null) return false;
  return ctx.user.role === 'staff' || memberReturns === true;
}

/** Where the button would be for a member who may not return: returns go over the desk. */
export function returnAtDeskHtml(ctx: RequestContext): Markup {
  return html`<p class="hint return-at-desk">${lendingStrings(ctx.lang).returnAtDesk}</p>`;
}

/** The return button: a POST form overridden to DELETE, with the CSRF token and version. */
export function returnForm(loan: Loan, now: Date, ctx: RequestContext): Markup {
  const t = loanStrings(ctx.lang);
  return html`<form class="return" method="post" action="${ctx.links.relative(loanPath(loan.person.id, loan.id))}">
    <input type="hidden" name="_method" value="DELETE" />
    ${ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : ''}
    <input type="hidden" name="_version" value="${ctx.versionOf(loanRepresentation(loan, now))}" />
    <button type="submit" aria-label="${t.returnLabel(loan.werk.titel)}">${t.returnButton}</button>
  </form>`;
}

function loanHtml(m: LoanModel, ctx: RequestContext): Markup {
  const t = loanStrings(ctx.lang);
  const { loan } = m;
  const rel = (p: string) => ctx.links.relative(p);
  const main = html`<article class="loan">
    <h1>${t.loanTitle(loan.werk.titel)}</h1>
    <dl class="facts">
      <dt>${t.work}</dt>
      <dd><a href="${rel(workPath(loan.werk.slug))}">${loan.werk.titel}</a></dd>
      <dt>${t.copy}</dt>
      <dd>${copyHtml(loan, ctx)}</dd>
      <dt>${t.person}</dt>
      <dd><a href="${rel(personPath(loan.person.slug))}">${fullName(loan.person)}</a></dd>
      <dt>${t.borrowed}</dt>
      <dd>${timeHtml(loan.borrowedAt, ctx)}</dd>
      <dt>${t.due}</dt>
      <dd>${timeHtml(loan.dueAt, ctx)}${overdueHtml(m.overdue, ctx)}</dd>
      <dt>${t.renewals}</dt>
      <dd class="renewals">${loan.renewals ?? 0}</dd>
    </dl>
    ${ctx.user !== null && loan.returnedAt === null ? renewForm(loan, ctx, m.maxRenewals) : ''}
    ${mayReturn(ctx, m.memberReturns) ? returnForm(loan, m.now, ctx) : ctx.user !== null ? returnAtDeskHtml(ctx) : ''}
    <p><a href="${rel(loansPath(loan.person.id))}">${t.backToList}</a></p>
  </article>`;
  return layout(
    { title: t.loanTitle(loan.werk.titel), main, canonicalPath: loanPath(loan.person.id, loan.id) },
    ctx,
  );
}

function loanXml(m: LoanModel, ctx: RequestContext): Markup {
  const { loan } = m;
  return xml`<ausleihe>
  <person ref="${ctx.links.absolute(personPath(loan.person.slug))}">${fullName(loan.person)}</person>
  <werk ref="${ctx.links.absolute(workPath(loan.werk.slug))}">${loan.werk.titel}</werk>${copyXml(loan, ctx, '  ')}
  <ausgeliehen>${loan.borrowedAt.toISOString()}</ausgeliehen>
  <faellig>${loan.dueAt.toISOString()}</faellig>
  <ueberfaellig>${String(m.overdue)}</ueberfaellig>
  <verlaengerungen>${loan.renewals ?? 0}</verlaengerungen>
</ausleihe>`;
}

function loanJson(m: LoanModel, ctx: RequestContext): unknown {
  const { loan } = m;
  return {
    person: { name: fullName(loan.person), url: ctx.links.absolute(personPath(loan.person.slug)) },
    werk: { titel: loan.werk.titel, url: ctx.links.absolute(workPath(loan.werk.slug)) },
    ...copyJson(loan, ctx),
    ausgeliehen: loan.borrowedAt.toISOString(),
    faellig: loan.dueAt.toISOString(),
    ueberfaellig: m.overdue,
    verlaengerungen: loan.renewals ?? 0,
  };
}

export const loanView: View<LoanModel> = { html: loanHtml, xml: loanXml, json: loanJson };
