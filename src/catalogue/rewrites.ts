// The catalogue's rewrite table (design §3): readable paths → script handlers, like mod_rewrite.
// Collections (`/personen`, `/werke`) and the home page `/` are routes of their own.
import type { RewriteRule } from '../http/resource/types.ts';

export const catalogueRewrites: readonly RewriteRule[] = [
  { pattern: /^\/personen\/([^/.]+)$/, target: '/person?slug=$1' },
  { pattern: /^\/werke\/([^/.]+)$/, target: '/werk?slug=$1' },
  // Loans come later (their handler is not part of the catalogue yet); the rule is kept here
  // so the URL space is declared in one place.
  { pattern: /^\/ausleihen\/(\d+)$/, target: '/ausleihen?benutzer=$1' },
];
