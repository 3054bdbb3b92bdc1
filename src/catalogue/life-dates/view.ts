// A person's life dates in their three representations (ADR 0026). XML and JSON hold the
// person's URL and both years (null / an empty element when unknown); HTML adds the name.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import { fullName, lifeDatesPath, personPath } from '../shared/index.ts';
import { formStrings, isStaff, staffToolsSection, versionFor } from '../writes/index.ts';
import { editLifeDatesForm, lifeDatesFormValues } from './forms.ts';
import type { LifeDates } from './store.ts';
import { lifeDatesStrings } from './strings.ts';

/** The edit form, for staff only (the server checks access on the write anyway). */
function staffTools(d: LifeDates, ctx: RequestContext): Markup {
  if (!isStaff(ctx)) return html``;
  const t = formStrings(ctx.lang);
  const version = versionFor(ctx, lifeDatesRepresentation(d));
  return staffToolsSection(
    t.edit,
    editLifeDatesForm(d, { values: lifeDatesFormValues(d), problems: [] }, version, ctx),
  );
}

function lifeDatesHtml(d: LifeDates, ctx: RequestContext): Markup {
  const t = lifeDatesStrings(ctx.lang);
  const name = fullName(d);
  const title = t.title(name);
  const main = html`<article class="life-dates">
      <h1>${title}</h1>
      <dl class="facts">
        <dt>${t.born}</dt>
        <dd class="geboren">${d.geboren ?? t.unknown}</dd>
        <dt>${t.died}</dt>
        <dd class="gestorben">${d.gestorben ?? t.unknown}</dd>
        <dt>${t.person}</dt>
        <dd><a href="${ctx.links.relative(personPath(d.slug))}">${name}</a></dd>
      </dl>
    </article>
    ${staffTools(d, ctx)}`;
  return layout({ title, main, canonicalPath: lifeDatesPath(d.slug), section: 'persons' }, ctx);
}

function lifeDatesXml(d: LifeDates, ctx: RequestContext): Markup {
  const geboren = d.geboren === null ? xml`<geboren/>` : xml`<geboren>${d.geboren}</geboren>`;
  const gestorben = d.gestorben === null ? xml`<gestorben/>` : xml`<gestorben>${d.gestorben}</gestorben>`;
  return xml`<lebensdaten>
  <person ref="${ctx.links.absolute(personPath(d.slug))}"/>
  ${geboren}
  ${gestorben}
</lebensdaten>`;
}

function lifeDatesJson(d: LifeDates, ctx: RequestContext): unknown {
  return { person: ctx.links.absolute(personPath(d.slug)), geboren: d.geboren, gestorben: d.gestorben };
}

export const lifeDatesView: View<LifeDates> = { html: lifeDatesHtml, xml: lifeDatesXml, json: lifeDatesJson };

/** The life dates' representation: what GET sends and what preconditions compare. */
export function lifeDatesRepresentation(d: LifeDates): Representation<LifeDates> {
  return {
    model: d,
    view: lifeDatesView,
    canonicalPath: lifeDatesPath(d.slug),
    lastModified: d.updatedAt,
    schema: 'life-dates',
    links: [{ rel: 'up', path: personPath(d.slug) }],
  };
}
