// Atom feeds (RFC 4287; ADR 0096): the newest works and a person's works. Every id is the
// absolute URL of what it names: a work's URL never moves and is never given to another work
// (docs/urls.md), so an entry's id is stable and unique, and the feed's id is its own URL. A
// feed's text is German, the library's language, and does not vary by Accept-Language.
import type { Representation, RequestContext, View } from '../../http/resource/types.ts';
import { xml, type Markup } from '../../http/representation/markup.ts';
import { mediaTypeOf } from '../../http/negotiation/index.ts';
import { strings } from '../i18n/index.ts';
import { fullName, personPath, suffixPath, workPath } from '../shared/index.ts';
import type { PersonRef } from '../model.ts';
import type { FeedEntry } from './source.ts';

export const ATOM_TYPE = mediaTypeOf('atom');

export interface Feed {
  readonly title: string;
  /** The resource the feed is a form of, e.g. `/werke` or `/personen/goethe`. */
  readonly canonicalPath: string;
  /** Whose feed it is (a person's feed); absent: the library. */
  readonly author?: PersonRef;
  readonly entries: readonly FeedEntry[];
  /** The newest change among what it shows; with no entries, that of its resource (or the epoch). */
  readonly updated: Date;
}

function authorXml(name: string, uri: string): Markup {
  return xml`<author><name>${name}</name><uri>${uri}</uri></author>`;
}

function entryXml(e: FeedEntry, ctx: RequestContext): Markup {
  const url = ctx.links.absolute(workPath(e.slug));
  const names = e.personen.map(fullName).join(', ');
  const summary = [names, e.jahr === null ? '' : String(e.jahr)].filter(Boolean).join(', ');
  return xml`
  <entry>
    <id>${url}</id>
    <title>${e.titel}</title>
    <link rel="alternate" type="text/html" href="${url}"/>
    <published>${e.createdAt.toISOString()}</published>
    <updated>${e.updatedAt.toISOString()}</updated>${e.personen.map(
      (p) => xml`
    ${authorXml(fullName(p), ctx.links.absolute(personPath(p.slug)))}`,
    )}${summary ? xml`\n    <summary>${summary}</summary>` : ''}
  </entry>`;
}

export function feedXml(feed: Feed, ctx: RequestContext): Markup {
  const self = ctx.links.absolute(suffixPath(feed.canonicalPath, 'atom'));
  const siteName = strings('de').siteName;
  const author = feed.author
    ? authorXml(fullName(feed.author), ctx.links.absolute(personPath(feed.author.slug)))
    : authorXml(siteName, ctx.links.absolute('/'));
  return xml`<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="de">
  <id>${self}</id>
  <title>${feed.title}</title>
  <updated>${feed.updated.toISOString()}</updated>
  ${author}
  <link rel="self" type="${ATOM_TYPE}" href="${self}"/>
  <link rel="alternate" type="text/html" href="${ctx.links.absolute(feed.canonicalPath)}"/>
  <generator uri="${ctx.links.absolute('/')}">${siteName}</generator>${feed.entries.map((e) => entryXml(e, ctx))}
</feed>`;
}

function onlyAtom(): never {
  // The resources hand out a feed only when the Atom form was chosen.
  throw new Error('a feed has only its Atom form');
}

const feedView: View<Feed> = { html: onlyAtom, xml: onlyAtom, json: onlyAtom, atom: feedXml };

/** The newest change of the entries, or `floor` (the feed's resource's own) when later. */
export function newestOf(entries: readonly FeedEntry[], floor = new Date(0)): Date {
  return new Date(Math.max(floor.getTime(), ...entries.map((e) => e.updatedAt.getTime())));
}

/**
 * The feed as the Atom representation of its resource, cacheable like every read (ADR 0048).
 * Validated by its ETag alone, as the lists are: a work that leaves the feed (deleted) changes
 * it without making anything in it newer, so a Last-Modified would answer 304 wrongly.
 */
export function feedRepresentation(feed: Feed): Representation<Feed> {
  return { model: feed, view: feedView, canonicalPath: feed.canonicalPath };
}

/** The `<link rel="alternate">` (and footer link) a page names its feed with. */
export function feedAlternate(canonicalPath: string): { path: string; type: string; label: string } {
  return { path: suffixPath(canonicalPath, 'atom'), type: ATOM_TYPE, label: 'Atom' };
}

export const FEED_TITLES = {
  works: 'Neue Werke',
  person: (name: string) => `Werke von ${name}`,
};
