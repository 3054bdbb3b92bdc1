// Headers that tell browsers what a page may do (ADR 0054), on every response of the layer:
//   - Content-Security-Policy: scripts, styles, images, fetches and form targets from this
//     origin only; no inline script or style (the error log's live script is a file,
//     /static/fehlerprotokoll.js), no plugins, no <base>, and no framing;
//   - X-Frame-Options: DENY for browsers that predate frame-ancestors;
//   - Referrer-Policy: same-origin — search words are in our URLs (`?q=`), and a library's
//     readers' searches are nobody else's business; same-origin requests keep the Referer the
//     CSRF check falls back on;
//   - Strict-Transport-Security when the configured base URL is https (not for an https a
//     proxy merely forwarded: HSTS binds the host name for a year, so it is the operator's
//     statement in SHELFMARK_BASE_URL).
import type { HeaderTarget } from './header-target.ts';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/** One year, the value HSTS preload lists ask for; no includeSubDomains (other hosts are not ours). */
export const HSTS = 'max-age=31536000';

export function setSecurityHeaders(reply: HeaderTarget, httpsBase: boolean): void {
  if (!reply.hasHeader('Content-Security-Policy'))
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Referrer-Policy', 'same-origin');
  if (httpsBase) reply.header('Strict-Transport-Security', HSTS);
}
