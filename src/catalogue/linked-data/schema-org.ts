// schema.org descriptions of a work and a person for their HTML pages (ADR 0095): what search
// engines and reference managers read. A work is a Book with its authors; each live copy is an
// Offer to lend (the library extension's holdings pattern: `sku` the shelfmark, `serialNumber`
// the barcode, `businessFunction` LeaseOut) whose availability is the copy's status. Nodes are
// named by their absolute URLs, so the graph links to the same resources the page does.
import type { Links } from '../../http/resource/types.ts';
import type { Person, PersonRef, Work } from '../model.ts';
import type { Copy } from '../copies/index.ts';
import { copyPath, fullName, imageAbsolute, personPath, workPath } from '../shared/index.ts';

export const SCHEMA_ORG_CONTEXT = 'https://schema.org';

const LEASE_OUT = 'http://purl.org/goodrelations/v1#LeaseOut';

function personNode(p: PersonRef, links: Links): Record<string, unknown> {
  const url = links.absolute(personPath(p.slug));
  return { '@type': 'Person', '@id': url, name: fullName(p), url };
}

function library(siteName: string, links: Links): Record<string, unknown> {
  return { '@type': 'Library', '@id': links.absolute('/'), name: siteName, url: links.absolute('/') };
}

function offer(work: Work, copy: Copy, siteName: string, links: Links): Record<string, unknown> {
  const available = copy.status.kind === 'verfuegbar';
  return {
    '@type': 'Offer',
    '@id': links.absolute(copyPath(work.slug, copy.nummer)),
    url: links.absolute(copyPath(work.slug, copy.nummer)),
    businessFunction: LEASE_OUT,
    sku: copy.signatur,
    serialNumber: copy.barcode,
    availability: `https://schema.org/${available ? 'InStock' : 'OutOfStock'}`,
    // A lent copy is back on its due date (the due date is public on the copy's page too).
    ...(copy.status.kind === 'ausgeliehen' && { availabilityStarts: copy.status.faellig.toISOString() }),
    availableAtOrFrom: { '@type': 'Place', name: copy.standort },
    offeredBy: library(siteName, links),
  };
}

/** The work as a schema.org Book. */
export function workJsonLd(work: Work, siteName: string, links: Links): Record<string, unknown> {
  const url = links.absolute(workPath(work.slug));
  return {
    '@context': SCHEMA_ORG_CONTEXT,
    '@type': 'Book',
    '@id': url,
    url,
    name: work.titel,
    ...(work.jahr !== null && { datePublished: String(work.jahr) }),
    author: work.personen.map((p) => personNode(p, links)),
    ...(work.copies && { offers: work.copies.map((c) => offer(work, c, siteName, links)) }),
  };
}

/** The person as a schema.org Person, with the works they wrote (`author` read backwards). */
export function personJsonLd(person: Person, links: Links): Record<string, unknown> {
  const url = links.absolute(personPath(person.slug));
  return {
    '@context': SCHEMA_ORG_CONTEXT,
    '@type': 'Person',
    '@id': url,
    url,
    name: fullName(person),
    givenName: person.vorname,
    familyName: person.nachname,
    image: imageAbsolute(person.image, links),
    '@reverse': {
      author: person.werke.map((w) => {
        const workUrl = links.absolute(workPath(w.slug));
        return { '@type': 'Book', '@id': workUrl, name: w.titel, url: workUrl };
      }),
    },
  };
}
