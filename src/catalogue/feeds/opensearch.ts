// The OpenSearch 1.1 description (ADR 0096) that lets a browser offer the catalogue's search
// from its address bar: /opensearch.xml, named by every page's <link rel="search">. A plain
// route like /sitemap.xml (passthrough, so `.xml` is a file name here, not a format suffix):
// built per request from its public base (behind a trusted proxy the forwarded host), sent with
// an ETag (304) and cacheable for an hour.
import type { FastifyInstance } from 'fastify';
import { prepareFixed, requestLinks, sendPrepared, XML_DECLARATION } from '../../http/index.ts';
import type { Links } from '../../http/resource/types.ts';
import { xml } from '../../http/representation/markup.ts';
import { strings } from '../i18n/index.ts';
import { OPENSEARCH_PATH } from '../layout/index.ts';

export const OPENSEARCH_TYPE = 'application/opensearchdescription+xml';

/** The works search with the query left for the client to fill in (`{searchTerms}` unescaped). */
export function searchTemplate(links: Links, suffix = ''): string {
  return `${links.absolute(`/werke${suffix}`)}?q={searchTerms}`;
}

export function openSearchDescription(links: Links): string {
  const t = strings('de');
  return (
    XML_DECLARATION +
    xml`<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName>${t.siteName}</ShortName>
  <Description>${t.siteName}: ${t.tagline}</Description>
  <Url type="text/html" method="get" template="${searchTemplate(links)}"/>
  <Url type="application/json" method="get" template="${searchTemplate(links, '.json')}"/>
  <Url type="application/xml" method="get" template="${searchTemplate(links, '.xml')}"/>
  <Url type="${OPENSEARCH_TYPE}" rel="self" template="${links.absolute(OPENSEARCH_PATH)}"/>
  <Image width="16" height="16" type="image/svg+xml">${links.absolute('/bilder/standard.svg')}</Image>
  <Language>de</Language>
  <InputEncoding>UTF-8</InputEncoding>
  <OutputEncoding>UTF-8</OutputEncoding>
</OpenSearchDescription>
`.text
  );
}

export function registerOpenSearchRoute(app: FastifyInstance): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: OPENSEARCH_PATH,
    handler: (request, reply) => {
      const links = requestLinks(request);
      if (!links) throw new Error('the OpenSearch route needs the resource layer (createResourceApp)');
      const body = prepareFixed(openSearchDescription(links), `${OPENSEARCH_TYPE}; charset=utf-8`, [
        ['Cache-Control', 'public, max-age=3600'],
        ['X-Content-Type-Options', 'nosniff'],
      ]);
      return sendPrepared(request, reply, body);
    },
  });
}
