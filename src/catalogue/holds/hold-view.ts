// One hold (`/personen/{slug}/vormerkungen/{id}`): work, member, when placed, and as of the
// request's moment its status — waiting at place N, or ready (a copy kept until a date). The
// item shapes here are shared by the member's list and the work's queue (list-views.ts).
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import { dateText } from '../loans/index.ts';
import { fullName, personPath, workPath, freshUntilField } from '../shared/index.ts';
import { holdPath, holdsPath } from './access.ts';
import type { Hold } from './model.ts';
import { holdStrings } from './strings.ts';

const STATUS = { waiting: 'wartend', ready: 'bereit', ended: 'beendet' } as const;

/** When the hold last changed as shown: placed, made ready (or the list's own lastChange). */
export function holdChangedAt(hold: Hold): Date {
  return hold.readyAt !== null && hold.status === 'ready' ? hold.readyAt : hold.placedAt;
}

export function holdRepresentation(
  hold: Hold,
  lastChange: Date | null,
  freshUntil?: Date,
): Representation<Hold> {
  return {
    model: hold,
    view: holdView,
    canonicalPath: holdPath(hold.person.slug, hold.id),
    // Other members' holds ahead move the position: the work's queue's last change counts too.
    lastModified: lastChange ?? holdChangedAt(hold),
    // A ready hold of the work runs out: this one ends, or moves up or gets the copy (ADR 0067).
    ...freshUntilField(freshUntil),
    schema: 'hold',
  };
}

export function timeHtml(date: Date, ctx: RequestContext): Markup {
  return html`<time datetime="${date.toISOString()}">${dateText(date, ctx.lang)}</time>`;
}

export function statusHtml(hold: Hold, ctx: RequestContext): Markup {
  const t = holdStrings(ctx.lang);
  if (hold.status === 'ready' && hold.expiresAt !== null)
    return html`<strong class="ready">${t.ready} ${timeHtml(hold.expiresAt, ctx)}</strong>${
      hold.copy !== null ? html` (${t.copy} ${hold.copy.signatur})` : ''
    }`;
  return html`${t.waiting(hold.position)}`;
}

/** The cancel button: a POST form overridden to DELETE, with the CSRF token. */
export function cancelForm(hold: Hold, ctx: RequestContext): Markup {
  const t = holdStrings(ctx.lang);
  return html`<form class="cancel-hold" method="post" action="${ctx.links.relative(holdPath(hold.person.slug, hold.id))}">
    <input type="hidden" name="_method" value="DELETE" />
    <input type="hidden" name="_version" value="${ctx.versionOf(holdRepresentation(hold, null))}" />
    ${ctx.csrfToken !== null ? html`<input type="hidden" name="_csrf" value="${ctx.csrfToken}" />` : ''}
    <button type="submit" aria-label="${t.cancelLabel(hold.werk.titel)}">${t.cancelButton}</button>
  </form>`;
}

/** The elements of a hold in XML, after its root's opening tag. */
export function holdXmlFields(hold: Hold, ctx: RequestContext): Markup {
  const abs = (p: string) => ctx.links.absolute(p);
  const opt = (name: string, value: string | null) =>
    value === null ? '' : xml`\n  <${name}>${value}</${name}>`;
  return xml`
  <person ref="${abs(personPath(hold.person.slug))}">${fullName(hold.person)}</person>
  <werk ref="${abs(workPath(hold.werk.slug))}">${hold.werk.titel}</werk>
  <vorgemerkt>${hold.placedAt.toISOString()}</vorgemerkt>
  <status>${STATUS[hold.status]}</status>${opt('position', hold.position === null ? null : String(hold.position))}${opt(
    'signatur',
    hold.copy?.signatur ?? null,
  )}${opt('bereitSeit', hold.status === 'ready' ? (hold.readyAt?.toISOString() ?? null) : null)}${opt(
    'abholbarBis',
    hold.status === 'ready' ? (hold.expiresAt?.toISOString() ?? null) : null,
  )}`;
}

export function holdJson(hold: Hold, ctx: RequestContext): Record<string, unknown> {
  const abs = (p: string) => ctx.links.absolute(p);
  const ready = hold.status === 'ready';
  return {
    url: abs(holdPath(hold.person.slug, hold.id)),
    person: { name: fullName(hold.person), url: abs(personPath(hold.person.slug)) },
    werk: { titel: hold.werk.titel, url: abs(workPath(hold.werk.slug)) },
    vorgemerkt: hold.placedAt.toISOString(),
    status: STATUS[hold.status],
    position: hold.position,
    signatur: hold.copy?.signatur ?? null,
    bereitSeit: ready ? (hold.readyAt?.toISOString() ?? null) : null,
    abholbarBis: ready ? (hold.expiresAt?.toISOString() ?? null) : null,
  };
}

function oneHtml(hold: Hold, ctx: RequestContext): Markup {
  const t = holdStrings(ctx.lang);
  const rel = (p: string) => ctx.links.relative(p);
  const main = html`<article class="hold">
    <h1>${t.holdTitle(hold.werk.titel)}</h1>
    <dl class="facts">
      <dt>${t.work}</dt>
      <dd><a href="${rel(workPath(hold.werk.slug))}">${hold.werk.titel}</a></dd>
      <dt>${t.person}</dt>
      <dd><a href="${rel(personPath(hold.person.slug))}">${fullName(hold.person)}</a></dd>
      <dt>${t.placed}</dt>
      <dd>${timeHtml(hold.placedAt, ctx)}</dd>
      <dt>${t.status}</dt>
      <dd class="hold-status">${statusHtml(hold, ctx)}</dd>
    </dl>
    ${ctx.user !== null ? cancelForm(hold, ctx) : ''}
    <p><a href="${rel(holdsPath(hold.person.slug))}">${t.backToList}</a></p>
  </article>`;
  return layout(
    { title: t.holdTitle(hold.werk.titel), main, canonicalPath: holdPath(hold.person.slug, hold.id) },
    ctx,
  );
}

export const holdView: View<Hold> = {
  html: oneHtml,
  xml: (
    hold,
    ctx,
  ) => xml`<vormerkung ref="${ctx.links.absolute(holdPath(hold.person.slug, hold.id))}">${holdXmlFields(hold, ctx)}
</vormerkung>`,
  json: holdJson,
};
