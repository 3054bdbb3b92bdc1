// A copy's status in every format, shared by the copy, the copies list and the work page. Who
// borrowed or holds a copy is shown to staff only (docs/access.md); everyone else sees
// "on loan until DATE" or "held" without a name.
import type { RequestContext } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { loansPath, dateText } from '../loans/index.ts';
import { fullName, personPath } from '../shared/index.ts';
import { isStaff } from '../writes/index.ts';
import type { CopyStatus } from './model.ts';
import { copyStrings } from './strings.ts';

export function statusText(s: CopyStatus, ctx: RequestContext): string {
  const t = copyStrings(ctx.lang);
  switch (s.kind) {
    case 'verfuegbar':
      return t.available;
    case 'ausgeliehen':
      return t.onLoanUntil(dateText(s.faellig, ctx.lang));
    case 'vorgemerkt':
      return t.held;
    case 'vermisst':
      return t.missing;
  }
}

/** The status for HTML: a class per kind, and for staff who has the copy (said once). */
export function statusHtml(s: CopyStatus, ctx: RequestContext): Markup {
  const t = copyStrings(ctx.lang);
  if (isStaff(ctx) && s.kind === 'vorgemerkt') {
    // "vorgemerkt für Anna Berger", not "vorgemerkt (Vorgemerkt für Anna Berger)".
    const holder = html`<a href="${ctx.links.relative(personPath(s.person.slug))}">${fullName(s.person)}</a>`;
    return html`<span class="copy-status ${s.kind}">${t.holder}</span> ${holder}`;
  }
  const who =
    isStaff(ctx) && s.kind === 'ausgeliehen'
      ? html` (<a href="${ctx.links.relative(loansPath(s.person.id))}">${fullName(s.person)}</a>)`
      : '';
  return html`<span class="copy-status ${s.kind}">${statusText(s, ctx)}</span>${who}`;
}

/** XML elements after `<standort>`: status, then its date, then (staff) the person. */
export function statusXml(s: CopyStatus, ctx: RequestContext, indent: string): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const lines: Markup[] = [xml`${indent}<status>${s.kind}</status>`];
  if (s.kind === 'ausgeliehen') lines.push(xml`${indent}<faellig>${s.faellig.toISOString()}</faellig>`);
  if (s.kind === 'vermisst') lines.push(xml`${indent}<vermisstSeit>${s.since.toISOString()}</vermisstSeit>`);
  if (isStaff(ctx) && s.kind === 'ausgeliehen')
    lines.push(
      xml`${indent}<ausgeliehenVon ref="${abs(personPath(s.person.slug))}">${fullName(s.person)}</ausgeliehenVon>`,
    );
  if (isStaff(ctx) && s.kind === 'vorgemerkt')
    lines.push(
      xml`${indent}<vorgemerktFuer ref="${abs(personPath(s.person.slug))}">${fullName(s.person)}</vorgemerktFuer>`,
    );
  return xml`${lines.map((l) => xml`\n${l}`)}`;
}

export function statusJson(s: CopyStatus, ctx: RequestContext): Record<string, unknown> {
  const abs = (p: string) => ctx.links.absolute(p);
  return {
    status: s.kind,
    ...(s.kind === 'ausgeliehen' && { faellig: s.faellig.toISOString() }),
    ...(s.kind === 'vermisst' && { vermisstSeit: s.since.toISOString() }),
    ...(isStaff(ctx) &&
      s.kind === 'ausgeliehen' && {
        ausgeliehenVon: { name: fullName(s.person), url: abs(personPath(s.person.slug)) },
      }),
    ...(isStaff(ctx) &&
      s.kind === 'vorgemerkt' && {
        vorgemerktFuer: { name: fullName(s.person), url: abs(personPath(s.person.slug)) },
      }),
  };
}
