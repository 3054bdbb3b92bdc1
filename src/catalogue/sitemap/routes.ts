// /robots.txt and /sitemap.xml (ADR 0053): plain routes outside negotiation (passthrough), so
// `.xml` here is a file name, not a format suffix. The sitemap streams its URLs a batch at a
// time; past `limit` URLs /sitemap.xml becomes an index of parts /sitemap/1.xml, /sitemap/2.xml …
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLinks } from '../../http/index.ts';
import type { Links } from '../../http/resource/types.ts';
import { xml } from '../../http/representation/markup.ts';
import { notFound } from '../shared/index.ts';
import { LIST_FACETS } from '../works/index.ts';
import { disallowedPaths, resourceUrl } from '../registry/index.ts';
import type { SitemapSource } from './source.ts';
import { sitemapIndex, URLSET_CLOSE, URLSET_OPEN, urlEntries } from './xml.ts';

/** The protocol's limit of URLs per sitemap file (https://www.sitemaps.org/protocol.html). */
export const SITEMAP_LIMIT = 50_000;

export const SITEMAP_PASSTHROUGH: readonly string[] = ['/robots.txt', '/sitemap.xml', '/sitemap/'];

export interface SitemapOptions {
  readonly source: SitemapSource;
  /** URLs per sitemap file; more make /sitemap.xml an index (default and maximum 50,000). */
  readonly limit?: number;
}

function linksOf(request: FastifyRequest): Links {
  const links = requestLinks(request);
  if (!links) throw new Error('sitemap routes need the resource layer (createResourceApp)');
  return links;
}

/**
 * Filtered works and persons lists (ADR 0094, 0102): every combination of facet values is another
 * URL with the same rows, so crawlers keep to the lists themselves. `*` is RFC 9309's wildcard; a
 * parameter comes first (`?`) or later (`&`), and the format suffix (`/werke.json?…`) is covered too.
 */
const FACET_DISALLOWED = (
  [
    [resourceUrl('Works').path, LIST_FACETS.works],
    [resourceUrl('Persons').path, LIST_FACETS.persons],
  ] as const
).flatMap(([list, names]) => names.flatMap((name) => [`${list}*?${name}=`, `${list}*&${name}=`]));

/**
 * Crawlers stay out of what the registry marks (ADR 0097): the log-in page (one per page it
 * returns to, `?zurueck=…`), loans, the error log, the server status; and the filtered lists.
 */
function robots(links: Links): string {
  const lines = [
    'User-agent: *',
    ...[...disallowedPaths(), ...FACET_DISALLOWED].map((path) => `Disallow: ${links.relative(path)}`),
  ];
  return `${lines.join('\n')}\n\nSitemap: ${links.absolute('/sitemap.xml')}\n`;
}

async function* urlset(source: SitemapSource, from: number, n: number, links: Links): AsyncGenerator<string> {
  yield URLSET_OPEN;
  for await (const batch of source.entries(from, n)) yield urlEntries(batch, (p) => links.absolute(p));
  yield URLSET_CLOSE;
}

function homeEntry(links: Links): string {
  return xml`  <url><loc>${links.absolute('/')}</loc></url>\n`.text;
}

function sendXml(request: FastifyRequest, reply: FastifyReply, body: string | Readable): FastifyReply {
  reply.type('application/xml; charset=utf-8');
  return request.method === 'HEAD' ? reply.send() : reply.send(body);
}

export function registerSitemapRoutes(app: FastifyInstance, options: SitemapOptions): void {
  const limit = Math.min(options.limit ?? SITEMAP_LIMIT, SITEMAP_LIMIT);
  const { source } = options;
  const partsOf = (count: number) => (count > limit ? Math.ceil(count / limit) : 0);

  app.route({
    method: ['GET', 'HEAD'],
    url: '/robots.txt',
    handler: (request, reply) => reply.type('text/plain; charset=utf-8').send(robots(linksOf(request))),
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/sitemap.xml',
    handler: async (request, reply) => {
      const links = linksOf(request);
      const count = await source.count();
      const parts = partsOf(count);
      // A urlset needs at least one url: an empty catalogue still has its home page.
      if (count === 0) return sendXml(request, reply, `${URLSET_OPEN}${homeEntry(links)}${URLSET_CLOSE}`);
      if (parts === 0) return sendXml(request, reply, Readable.from(urlset(source, 0, count, links)));
      const urls = Array.from({ length: parts }, (_, i) => links.absolute(`/sitemap/${i + 1}.xml`));
      return sendXml(request, reply, sitemapIndex(urls));
    },
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/sitemap/:file',
    handler: async (request, reply) => {
      const match = /^([1-9][0-9]{0,5})\.xml$/.exec((request.params as { file: string }).file);
      const part = match ? Number(match[1]) : 0;
      const count = await source.count();
      if (part < 1 || part > partsOf(count)) throw notFound();
      const links = linksOf(request);
      return sendXml(request, reply, Readable.from(urlset(source, (part - 1) * limit, limit, links)));
    },
  });
}
