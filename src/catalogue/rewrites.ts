// The catalogue's rewrite table (docs/urls.md): readable paths → script handlers, like
// mod_rewrite, derived from the registry's URL declarations (ADR 0090). A URL that is its own
// route (collections like `/personen`, the home page `/`) has no rule.
import type { RewriteRule } from '../http/resource/types.ts';
import { RESOURCE_URLS, rewriteRule } from './registry/index.ts';

export const catalogueRewrites: readonly RewriteRule[] = RESOURCE_URLS.flatMap(
  (url) => rewriteRule(url) ?? [],
);
