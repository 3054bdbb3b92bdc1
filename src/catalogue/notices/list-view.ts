// The notices as a list (ADR 0092): a patron's (`/personen/{slug}/benachrichtigungen`, for
// them and staff) or everyone's (`/benachrichtigungen`, staff), newest first, filtered by
// status. Each says what was (or will be) sent, to which address, when, and what it is about.
// A password reset's text is never shown: its link would let the reader set the password.
// The SMTP server's last error is for staff. XML and JSON: schema `notices`.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout, listTable, pagingHeadLinks, pagingNav } from '../layout/index.ts';
import { holdPath } from '../holds/index.ts';
import { loanPath } from '../loans/index.ts';
import { timeHtml } from '../loans/index.ts';
import type { Page, PersonRef } from '../model.ts';
import type { PageLinks } from '../shared/index.ts';
import { totalHtml, totalJson, totalXml } from '../shared/index.ts';
import { fullName, personPath } from '../shared/index.ts';
import type { NoticeRow } from './list-store.ts';
import { noticeListStrings } from './list-strings.ts';
import { NOTICES_PATH, personNoticesPath } from './paths.ts';
import { STATUS_NAMES, statusName, type StatusName } from './status.ts';

export interface NoticesModel {
  /** Whose notices; null: everyone's (the staff list). */
  readonly person: PersonRef | null;
  readonly status: StatusName | undefined;
  readonly page: Page<NoticeRow>;
  readonly links: PageLinks;
  readonly canonicalPath: string;
  /** The viewer is staff: the SMTP server's errors are shown. */
  readonly staff: boolean;
}

/** What the notice is about: the loan or the hold (a password reset: nothing to link). */
function aboutPath(n: NoticeRow): string | null {
  if (n.kind === 'hold-ready') return holdPath(n.person.slug, n.subjectId);
  if (n.kind === 'password-reset') return null;
  return loanPath(n.person.id, n.subjectId);
}

const textOf = (n: NoticeRow): string | null => (n.kind === 'password-reset' ? null : n.body);

function statusFilter(m: NoticesModel, ctx: RequestContext): Markup {
  const t = noticeListStrings(ctx.lang);
  const action = m.person ? personNoticesPath(m.person.slug) : NOTICES_PATH;
  return html`<form class="list-filter" method="get" action="${ctx.links.relative(action)}">
    <label for="status">${t.status}</label>
    <select id="status" name="status">
      <option value=""${m.status === undefined ? html` selected` : ''}>${t.allStates}</option>
      ${STATUS_NAMES.map(
        (s) => html`<option value="${s}"${m.status === s ? html` selected` : ''}>${t.states[s]}</option>`,
      )}
    </select>
    <button type="submit">${t.filter}</button>
  </form>`;
}

function rowHtml(n: NoticeRow, m: NoticesModel, ctx: RequestContext): Markup {
  const t = noticeListStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const about = aboutPath(n);
  const text = textOf(n);
  return html`<tr>
    <td data-label="${t.planned}">${timeHtml(n.createdAt, ctx)}</td>
    <td data-label="${t.kind}">${about ? html`<a href="${rel(about)}">${t.kinds[n.kind]}</a>` : t.kinds[n.kind]}</td>
    <td data-label="${t.subject}">
      <details>
        <summary>${n.subject}</summary>
        ${text !== null ? html`<pre class="notice-text">${text}</pre>` : html`<p>${t.hiddenText}</p>`}
      </details>
    </td>
    ${m.person ? '' : html`<td data-label="${t.person}"><a href="${rel(personNoticesPath(n.person.slug))}">${fullName(n.person)}</a></td>`}
    <td data-label="${t.to}">${n.email}</td>
    <td data-label="${t.status}">
      ${t.states[statusName(n.state)]}${n.sentAt ? html`, ${timeHtml(n.sentAt, ctx)}` : ''}${
        n.state === 'pending' && n.attempts > 0
          ? html`; ${t.attempts} ${n.attempts}, ${t.nextAttempt} ${timeHtml(n.nextAttemptAt, ctx)}`
          : ''
      }${m.staff && n.lastError !== null && n.state !== 'sent' ? html`<br /><span class="problem">${t.error}: ${n.lastError}</span>` : ''}
    </td>
  </tr>`;
}

function noticesHtml(m: NoticesModel, ctx: RequestContext): Markup {
  const t = noticeListStrings(ctx.lang);
  const title = m.person ? t.personTitle(fullName(m.person)) : t.allTitle;
  const main = html`<article class="staff-list notices">
    <h1>${title}</h1>
    ${statusFilter(m, ctx)}
    ${totalHtml(m.page.total, ctx.lang)}
    ${listTable(
      [t.planned, t.kind, t.subject, m.person ? null : t.person, t.to, t.status],
      m.page.items.map((n) => rowHtml(n, m, ctx)),
      t.none,
    )}
    ${pagingNav(m.links, ctx)}
  </article>`;
  return layout(
    {
      title,
      main,
      canonicalPath: m.canonicalPath,
      section: m.person ? 'my-account' : 'notices',
      headLinks: pagingHeadLinks(m.links),
    },
    ctx,
  );
}

function noticeXml(n: NoticeRow, m: NoticesModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const about = aboutPath(n);
  const text = textOf(n);
  const opt = (name: string, value: string | null) =>
    value === null ? '' : xml`\n    <${name}>${value}</${name}>`;
  return xml`
  <benachrichtigung id="${n.id}" art="${n.kind}" status="${statusName(n.state)}">
    <person ref="${abs(personPath(n.person.slug))}">${fullName(n.person)}</person>${
      about ? xml`\n    <betrifft ref="${abs(about)}"/>` : ''
    }
    <an>${n.email}</an>
    <sprache>${n.language}</sprache>
    <betreff>${n.subject}</betreff>${opt('text', text)}
    <geplant>${n.createdAt.toISOString()}</geplant>${opt('gesendet', n.sentAt?.toISOString() ?? null)}
    <versuche>${n.attempts}</versuche>${opt('naechsterVersuch', n.state === 'pending' ? n.nextAttemptAt.toISOString() : null)}${opt(
      'fehler',
      m.staff ? n.lastError : null,
    )}
  </benachrichtigung>`;
}

function noticesXml(m: NoticesModel, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const items = m.page.items.map((n) => noticeXml(n, m, ctx));
  return xml`<benachrichtigungen>${
    m.person ? xml`\n  <person ref="${abs(personPath(m.person.slug))}">${fullName(m.person)}</person>` : ''
  }${m.status ? xml`\n  <status>${m.status}</status>` : ''}${totalXml(m.page.total)}${items}${
    m.links.prev ? xml`\n  <vorige ref="${abs(m.links.prev)}"/>` : ''
  }${m.links.next ? xml`\n  <naechste ref="${abs(m.links.next)}"/>` : ''}
</benachrichtigungen>`;
}

function noticesJson(m: NoticesModel, ctx: RequestContext): unknown {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    ...(m.person ? { person: { name: fullName(m.person), url: abs(personPath(m.person.slug)) } } : {}),
    ...(m.status ? { status: m.status } : {}),
    ...totalJson(m.page.total),
    benachrichtigung: m.page.items.map((n) => {
      const about = aboutPath(n);
      return {
        id: n.id,
        art: n.kind,
        status: statusName(n.state),
        person: { name: fullName(n.person), url: abs(personPath(n.person.slug)) },
        betrifft: about ? abs(about) : null,
        an: n.email,
        sprache: n.language,
        betreff: n.subject,
        text: textOf(n),
        geplant: n.createdAt.toISOString(),
        gesendet: n.sentAt?.toISOString() ?? null,
        versuche: n.attempts,
        ...(n.state === 'pending' && { naechsterVersuch: n.nextAttemptAt.toISOString() }),
        ...(m.staff && n.lastError !== null && { fehler: n.lastError }),
      };
    }),
    ...(m.links.prev ? { vorige: abs(m.links.prev) } : {}),
    ...(m.links.next ? { naechste: abs(m.links.next) } : {}),
  };
}

export const noticesView: View<NoticesModel> = { html: noticesHtml, xml: noticesXml, json: noticesJson };

export function noticesRepresentation(model: NoticesModel): Representation<NoticesModel> {
  return { model, view: noticesView, canonicalPath: model.canonicalPath, schema: 'notices' };
}
