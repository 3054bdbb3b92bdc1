// The desk's check-in page (`/rueckgabe`, staff): a barcode form, and after a check-in the
// copy's loan as returned (its URL, work, borrower, dates). XML and JSON say the same
// (schemas check-in.xsd / check-in.json); without `?barcode=` they carry no loan.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import { loanPath, loansPath, timeHtml, lendingStrings } from '../loans/index.ts';
import { fullName, personPath, workPath } from '../shared/index.ts';
import type { CopyLoan } from './store.ts';
import { CHECK_IN_PATH } from './paths.ts';

export { CHECK_IN_PATH };

export interface CheckInModel {
  /** The copy asked about (`?barcode=`), null on the bare form. */
  readonly copy: CopyLoan | null;
  /** A problem with the entered barcode, shown beside the field (422 for a form). */
  readonly problem?: { readonly value: string; readonly message: string };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days a return came after the due date (a part of a day counts as one); 0: on time. */
export function daysLate(due: Date, returned: Date): number {
  const late = returned.getTime() - due.getTime();
  return late > 0 ? Math.ceil(late / DAY_MS) : 0;
}

export const checkInPath = (barcode: string): string =>
  `${CHECK_IN_PATH}?barcode=${encodeURIComponent(barcode)}`;

function resultHtml(copy: CopyLoan, ctx: RequestContext): Markup {
  const t = lendingStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const { loan } = copy;
  if (loan === null) return html`<p class="result">${t.neverLent}</p>`;
  const late = loan.returnedAt !== null ? daysLate(loan.dueAt, loan.returnedAt) : 0;
  const kept = copy.keptFor ?? null;
  return html`<section class="result" aria-live="polite">
    <p class="status">${loan.returnedAt !== null ? t.checkedIn(loan.werk.titel) : t.stillLent(loan.werk.titel)}</p>
    ${late > 0 ? html`<p class="next overdue"><strong>${t.returnedLate(late)}</strong></p>` : ''}
    ${
      kept !== null
        ? html`<p class="next hold-shelf">
            <strong>${t.toHoldShelf(fullName(kept))}</strong>
            ${t.pickUpBy} ${timeHtml(kept.until, ctx)}.
          </p>`
        : loan.returnedAt !== null
          ? html`<p class="next">${t.backToShelf}</p>`
          : ''
    }
    <dl class="facts">
      <dt>${t.copy}</dt>
      <dd>${copy.signatur} (${copy.barcode})</dd>
      <dt>${t.work}</dt>
      <dd><a href="${rel(workPath(loan.werk.slug))}">${loan.werk.titel}</a></dd>
      <dt>${t.person}</dt>
      <dd><a href="${rel(loansPath(loan.person.id))}">${fullName(loan.person)}</a></dd>
      <dt>${t.borrowed}</dt>
      <dd>${timeHtml(loan.borrowedAt, ctx)}</dd>
      <dt>${t.due}</dt>
      <dd>${timeHtml(loan.dueAt, ctx)}</dd>
      ${loan.returnedAt !== null ? html`<dt>${t.returned}</dt><dd>${timeHtml(loan.returnedAt, ctx)}</dd>` : ''}
    </dl>
  </section>`;
}

function checkInHtml(m: CheckInModel, ctx: RequestContext): Markup {
  const t = lendingStrings(ctx.lang);
  const problem = m.problem;
  const main = html`<article class="check-in">
    <h1>${t.checkInTitle}</h1>
    ${m.copy !== null ? resultHtml(m.copy, ctx) : ''}
    <form class="check-in" method="post" action="${ctx.links.relative(CHECK_IN_PATH)}">
      ${ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : ''}
      <p>${t.checkInIntro}</p>
      <p>
        <label for="barcode">${t.barcode}</label>
        <input
          id="barcode"
          name="barcode"
          type="text"
          required
          maxlength="64"
          autocomplete="off"
          autofocus
          value="${problem?.value ?? ''}"
          ${problem ? html`aria-invalid="true" aria-describedby="barcode-problem"` : ''}
        />
        <button type="submit">${t.checkInButton}</button>
      </p>
      ${problem ? html`<p class="problem" id="barcode-problem">${problem.message}</p>` : ''}
    </form>
  </article>`;
  return layout({ title: t.checkInTitle, main, canonicalPath: CHECK_IN_PATH, section: 'check-in' }, ctx);
}

function checkInXml(m: CheckInModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const copy = m.copy;
  if (copy === null) return xml`<rueckgabe/>`;
  const loan = copy.loan;
  const loanXml = loan
    ? xml`
  <ausleihe ref="${abs(loanPath(loan.person.id, loan.id))}">
    <person ref="${abs(personPath(loan.person.slug))}">${fullName(loan.person)}</person>
    <werk ref="${abs(workPath(loan.werk.slug))}">${loan.werk.titel}</werk>
    <ausgeliehen>${loan.borrowedAt.toISOString()}</ausgeliehen>
    <faellig>${loan.dueAt.toISOString()}</faellig>
    ${loan.returnedAt !== null ? xml`<zurueckgegeben>${loan.returnedAt.toISOString()}</zurueckgegeben>` : xml`<zurueckgegeben/>`}
    <tageUeberfaellig>${loan.returnedAt !== null ? daysLate(loan.dueAt, loan.returnedAt) : 0}</tageUeberfaellig>
  </ausleihe>`
    : '';
  const kept = copy.keptFor ?? null;
  const keptXml = kept
    ? xml`
  <abholregal>
    <person ref="${abs(personPath(kept.slug))}">${fullName(kept)}</person>
    <abholbarBis>${kept.until.toISOString()}</abholbarBis>
  </abholregal>`
    : '';
  return xml`<rueckgabe>
  <barcode>${copy.barcode}</barcode>
  <signatur>${copy.signatur}</signatur>${loanXml}${keptXml}
</rueckgabe>`;
}

function checkInJson(m: CheckInModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  const copy = m.copy;
  const loan = copy?.loan ?? null;
  return {
    barcode: copy?.barcode ?? null,
    signatur: copy?.signatur ?? null,
    ausleihe:
      loan === null
        ? null
        : {
            url: abs(loanPath(loan.person.id, loan.id)),
            person: { name: fullName(loan.person), url: abs(personPath(loan.person.slug)) },
            werk: { titel: loan.werk.titel, url: abs(workPath(loan.werk.slug)) },
            ausgeliehen: loan.borrowedAt.toISOString(),
            faellig: loan.dueAt.toISOString(),
            zurueckgegeben: loan.returnedAt?.toISOString() ?? null,
            tageUeberfaellig: loan.returnedAt !== null ? daysLate(loan.dueAt, loan.returnedAt) : 0,
          },
    abholregal: copy?.keptFor
      ? {
          person: { name: fullName(copy.keptFor), url: abs(personPath(copy.keptFor.slug)) },
          abholbarBis: copy.keptFor.until.toISOString(),
        }
      : null,
  };
}

export const checkInView: View<CheckInModel> = { html: checkInHtml, xml: checkInXml, json: checkInJson };

export function checkInRepresentation(model: CheckInModel): Representation<CheckInModel> {
  const loan = model.copy?.loan ?? null;
  const changed = loan ? (loan.returnedAt ?? loan.borrowedAt) : undefined;
  return {
    model,
    view: checkInView,
    canonicalPath: model.copy ? checkInPath(model.copy.barcode) : CHECK_IN_PATH,
    ...(changed && { lastModified: changed }),
    schema: 'check-in',
    // The loan checked in has its own URL (which answers 410 once it is returned, ADR 0036).
    ...(loan && { links: [{ rel: 'related', path: loanPath(loan.person.id, loan.id) }] }),
  };
}
