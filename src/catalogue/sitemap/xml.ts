// The sitemaps.org 0.9 documents (https://www.sitemaps.org/protocol.html): a urlset of at most
// 50,000 URLs, or an index of such parts. Written through the escaping xml template.
import { xml, XML_DECLARATION } from '../../http/representation/markup.ts';
import type { SitemapEntry } from './source.ts';

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}">\n`;
export const URLSET_CLOSE = '</urlset>\n';

export function urlEntries(entries: readonly SitemapEntry[], absolute: (path: string) => string): string {
  return entries
    .map((e) => xml`  <url><loc>${absolute(e.path)}</loc><lastmod>${e.lastmod}</lastmod></url>\n`.text)
    .join('');
}

export function sitemapIndex(partUrls: readonly string[]): string {
  const parts = partUrls.map((loc) => xml`  <sitemap><loc>${loc}</loc></sitemap>\n`.text).join('');
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${parts}</sitemapindex>\n`;
}
