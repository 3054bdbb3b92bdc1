// The person resource in its three representations. The XML and JSON shapes are fixed by
// docs/representations.md: element and key order as below, no other fields, absolute URLs.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { html, xml, type Markup } from '../../http/representation/markup.ts';
import { strings } from '../i18n/index.ts';
import { layout } from '../layout/index.ts';
import type { Person } from '../model.ts';
import {
  fullName,
  imageAbsolute,
  imageRelative,
  lifeDatesPath,
  personPath,
  workPath,
} from '../shared/index.ts';
import { lifeDatesStrings } from '../life-dates/index.ts';
import {
  isStaff,
  staffToolsSection,
  versionFor,
  formStrings,
  deleteConfirmationPage,
  deleteLink,
  wantsDeleteConfirmation,
} from '../writes/index.ts';
import { loansPath, loanStrings } from '../loans/index.ts';
import { editPersonForm, personFormValues } from './forms.ts';
import { accountLink } from '../accounts/index.ts';
import { feedAlternate } from '../feeds/index.ts';
import { personJsonLd } from '../linked-data/index.ts';

/** Edit and delete forms, for staff only (the server checks access on the write anyway). */
function staffTools(p: Person, ctx: RequestContext): Markup {
  if (!isStaff(ctx)) return html``;
  const t = formStrings(ctx.lang);
  const version = versionFor(ctx, personRepresentation(p));
  return staffToolsSection(
    t.edit,
    editPersonForm(p, { values: personFormValues(p), problems: [] }, version, ctx),
    deleteLink(personPath(p.slug), t.deletePerson, ctx),
  );
}

/** Staff go from a person with an account to that account's loans (members see their own from the session page). */
function loansLink(p: Person, ctx: RequestContext): Markup | string {
  if (!isStaff(ctx) || p.username === null) return '';
  const name = fullName(p);
  return html`<p class="staff-link"><a href="${ctx.links.relative(loansPath(p.id))}">${loanStrings(ctx.lang).listTitle(name)}</a></p>`;
}

function personHtml(p: Person, ctx: RequestContext): Markup {
  const t = strings(ctx.lang);
  const name = fullName(p);
  if (wantsDeleteConfirmation(ctx)) {
    return deleteConfirmationPage(
      {
        path: personPath(p.slug),
        name,
        consequence: formStrings(ctx.lang).personDeleted,
        version: versionFor(ctx, personRepresentation(p)),
        section: 'persons',
      },
      ctx,
    );
  }
  const main = html`<article class="person">
    <h1>${name}</h1>
    <p class="person-card">
      <img
        class="portrait"
        src="${imageRelative(p.image, ctx.links)}"
        alt="${t.portraitAlt(name)}"
        width="160"
        height="160"
      />
      <span class="person-facts"
        ><span class="label">${t.fullName}:</span> <span class="name">${name}</span><br />
        <span class="label">${t.works}:</span> <span class="count">${p.werke.length}</span><br />
        <span class="label">${t.username}:</span>
        ${p.username !== null ? html`<span class="username">${p.username}</span>` : html`<span class="username none">${t.noAccount}</span>`}<br />
        <a class="life-dates" href="${ctx.links.relative(lifeDatesPath(p.slug))}">${lifeDatesStrings(ctx.lang).lifeDates}</a></span
      >
    </p>
    ${loansLink(p, ctx)} ${accountLink(p, ctx)}
    <h2>${t.works}</h2>
    ${
      p.werke.length > 0
        ? html`<ul class="link-list">
            ${p.werke.map((w) => {
              const path = ctx.links.relative(workPath(w.slug));
              return html`<li>
                <a href="${path}"
                  ><span class="titel">${w.titel}</span> <span class="address">${path}</span></a
                >
              </li> `;
            })}
          </ul>`
        : html`<p>${t.noWorks}</p>`
    }
  </article>
  ${staffTools(p, ctx)}`;
  return layout(
    {
      title: name,
      main,
      canonicalPath: personPath(p.slug),
      section: 'persons',
      alternates: [feedAlternate(personPath(p.slug))],
      jsonLd: personJsonLd(p, ctx.links),
    },
    ctx,
  );
}

// Indented exactly like docs/representations.md; the layer prepends the XML declaration. A person without
// an account keeps the element, empty (docs/decisions/0020-person-without-username.md).
function personXml(p: Person, ctx: RequestContext): Markup {
  const works = p.werke.map(
    (w) => xml`\n    <werk ref="${ctx.links.absolute(workPath(w.slug))}">${w.titel}</werk>`,
  );
  return xml`<person>
  <image ref="${imageAbsolute(p.image, ctx.links)}"/>
  <vorname>${p.vorname}</vorname>
  <nachname>${p.nachname}</nachname>
  ${p.username !== null ? xml`<username>${p.username}</username>` : xml`<username/>`}
  ${works.length > 0 ? xml`<werke>${works}\n  </werke>` : xml`<werke/>`}
</person>`;
}

function personJson(p: Person, ctx: RequestContext): unknown {
  return {
    image: imageAbsolute(p.image, ctx.links),
    vorname: p.vorname,
    nachname: p.nachname,
    werk: p.werke.map((w) => ({ titel: w.titel, url: ctx.links.absolute(workPath(w.slug)) })),
  };
}

export const personView: View<Person> = { html: personHtml, xml: personXml, json: personJson };

/** The person resource's representation: what GET sends and what preconditions compare. */
export function personRepresentation(person: Person): Representation<Person> {
  return {
    model: person,
    view: personView,
    canonicalPath: personPath(person.slug),
    lastModified: person.updatedAt,
    schema: 'person',
    // The life dates are their own resource (ADR 0026); the JSON and XML shapes are fixed, so
    // every format links to them in the header.
    links: [
      { rel: 'related', path: lifeDatesPath(person.slug) },
      // The feed of their works (ADR 0096).
      { rel: 'alternate', ...feedAlternate(personPath(person.slug)) },
    ],
  };
}
