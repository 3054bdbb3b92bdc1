export { registerSitemapRoutes, SITEMAP_LIMIT, SITEMAP_PASSTHROUGH, type SitemapOptions } from './routes.ts';
export { sqlSitemapSource, type SitemapEntry, type SitemapSource } from './source.ts';
