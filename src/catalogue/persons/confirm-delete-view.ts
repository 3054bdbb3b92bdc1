// A person's delete confirmation (`?loeschen`, ADR 0028) when the store can say what the person
// has open at the library (ADR 0061): with open loans or holds the page says at once that the
// person cannot be deleted, and why, instead of offering a button that would answer 409; so
// does the person of the last staff account (ADR 0077).
// XML and JSON stay the person's (`?loeschen` changes only the staff's HTML page).
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, type Markup } from '../../http/representation/markup.ts';
import { layout } from '../layout/index.ts';
import type { OpenLending } from '../loans/index.ts';
import { lendingStrings, loansPath } from '../loans/index.ts';
import { accountStrings } from '../accounts/index.ts';
import type { Person } from '../model.ts';
import { fullName, personPath } from '../shared/index.ts';
import { personRepresentation, personView } from './person-view.ts';

export interface PersonDeleteModel {
  readonly person: Person;
  readonly open: OpenLending;
  /** The person holds the last usable staff account (ADR 0077): not deleted either. */
  readonly lastStaff: boolean;
}

const hasLending = (m: PersonDeleteModel): boolean => m.open.loans > 0 || m.open.holds > 0;

function blockedHtml(m: PersonDeleteModel, ctx: RequestContext): Markup {
  const t = lendingStrings(ctx.lang);
  const name = fullName(m.person);
  const rel = (p: string) => ctx.links.relative(p);
  const main = html`<article class="confirm-delete blocked">
    <h1>${t.cannotDeleteTitle(name)}</h1>
    ${hasLending(m) ? html`<p class="reason">${t.cannotDelete(m.open)}</p>` : ''}
    ${m.lastStaff ? html`<p class="reason">${accountStrings(ctx.lang).lastStaff}</p>` : ''}
    <p>
      <a href="${rel(loansPath(m.person.id))}">${t.toLoans}</a>
      · <a class="cancel" href="${rel(personPath(m.person.slug))}">${t.back}</a>
    </p>
  </article>`;
  return layout(
    { title: t.cannotDeleteTitle(name), main, canonicalPath: personPath(m.person.slug), section: 'persons' },
    ctx,
  );
}

const blocked = (m: PersonDeleteModel): boolean => hasLending(m) || m.lastStaff;

const personDeleteView: View<PersonDeleteModel> = {
  html: (m, ctx) => (blocked(m) ? blockedHtml(m, ctx) : personView.html(m.person, ctx)),
  xml: (m, ctx) => personView.xml(m.person, ctx),
  json: (m, ctx) => personView.json(m.person, ctx),
};

/**
 * The confirmation's representation: it shows the open loans and holds too, so its
 * Last-Modified is the later of the person's version and their last lending change.
 */
export function personDeleteRepresentation(
  person: Person,
  open: OpenLending,
  lastStaff = false,
): Representation<PersonDeleteModel> {
  const base = personRepresentation(person);
  const times = [person.updatedAt, open.lastChange]
    .filter((d): d is Date => d !== null)
    .map((d) => d.getTime());
  return {
    ...base,
    model: { person, open, lastStaff },
    view: personDeleteView,
    lastModified: new Date(Math.max(...times)),
    // A hold that runs out changes what the page says is open (ADR 0067).
    ...(open.freshUntil && { freshUntil: open.freshUntil }),
  };
}
