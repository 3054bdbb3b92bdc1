// The CSRF decision for one request (docs/access.md). Which checks apply depends on what
// authenticates the request, because CSRF abuses credentials the browser adds by itself:
//   session cookie → origin check (strict) AND a valid token (`X-CSRF-Token` or `_csrf`);
//   login (POST to the session resource) → origin check (strict) only: there is no session yet;
//   HTTP Basic → origin check (lenient) only: the browser adds Basic credentials by itself only
//     after a WWW-Authenticate challenge, which Shelfmark sends only to clients that already
//     tried Basic, and non-browser clients send no Origin — so reject evidence of a cross-site
//     browser request, accept its absence;
//   anonymous → nothing: there is no authority to borrow (access rules then answer 403).
// Safe methods (GET, HEAD, OPTIONS) are never checked: they change nothing.
// Tokens are bound to the session and time-limited, with nothing stored on the server:
// base36(issued at, Unix seconds) "." base64url(HMAC(key, session id "." issued at)), the key
// derived for this purpose only (session/keys.ts), so a session MAC never passes as a token.
import { HttpError, type LocalDetail } from '../errors/index.ts';
import { deriveKeys, fromBase64url, mac, verifyMac } from '../session/keys.ts';
import { checkOrigin, type OriginHeaders } from './origin.ts';

export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export type CsrfAuth = 'session' | 'basic' | 'none';
export type CsrfReason = 'origin' | 'token';

/** A 403 that says which check failed (the problem code is SHELFMARK_CSRF_FAILED either way). */
export class CsrfError extends HttpError {
  readonly reason: CsrfReason;
  constructor(reason: CsrfReason, detail: string, localDetail: LocalDetail) {
    super('SHELFMARK_CSRF_FAILED', { detail, localDetail });
    this.reason = reason;
  }
}

export interface CsrfRequest {
  readonly method: string;
  readonly headers: OriginHeaders & { readonly [CSRF_HEADER]?: string | string[] | undefined };
  readonly body: unknown;
  readonly auth: CsrfAuth;
  /** The session id when auth is 'session'. */
  readonly sessionId: string | null;
  /** True for the log-in request (POST to the session resource). */
  readonly login: boolean;
  /**
   * The origin this request was made to as the layer sees it: the configured base, or the
   * scheme and host a trusted proxy forwarded (X-Forwarded-Proto/-Host). Accepted beside
   * `origins`: a page served through the proxy posts back to the proxy's origin.
   */
  readonly publicOrigin?: string;
}

export interface CsrfGuardOptions {
  readonly secrets: readonly string[];
  /** Accepted origins, e.g. the origin of the public base URL. */
  readonly origins: readonly string[];
  /** Token lifetime in seconds (default 2 hours). */
  readonly maxAgeSeconds?: number;
}

export interface CsrfGuard {
  /** The token to put in forms (`_csrf`) for this session. */
  token(sessionId: string, nowMs: number): string;
  /** Throws a CsrfError (403) when the request must be refused. */
  check(request: CsrfRequest, nowMs: number): void;
}

export const DEFAULT_CSRF_MAX_AGE = 2 * 60 * 60;
/** Tolerated clock difference between machines issuing and checking tokens. */
const FUTURE_SKEW = 60;

export type TokenVerdict = 'ok' | 'missing' | 'invalid' | 'expired';

export interface CsrfTokens {
  issue(sessionId: string, nowMs: number): string;
  verify(token: string | undefined, sessionId: string, nowMs: number): TokenVerdict;
}

export function createCsrfTokens(options: Pick<CsrfGuardOptions, 'secrets' | 'maxAgeSeconds'>): CsrfTokens {
  const keys = deriveKeys(options.secrets, 'csrf');
  const maxAge = options.maxAgeSeconds ?? DEFAULT_CSRF_MAX_AGE;
  const signed = (sessionId: string, issued: number) => `${sessionId}.${issued}`;
  return {
    issue(sessionId, nowMs) {
      const issued = Math.floor(nowMs / 1000);
      return `${issued.toString(36)}.${mac(keys[0] as Buffer, signed(sessionId, issued)).toString('base64url')}`;
    },
    verify(token, sessionId, nowMs) {
      if (!token) return 'missing';
      const match = /^([0-9a-z]{1,10})\.([\w-]{43})$/.exec(token);
      const sig = match?.[2] === undefined ? null : fromBase64url(match[2]);
      if (!match?.[1] || !sig) return 'invalid';
      const issued = parseInt(match[1], 36);
      if (!verifyMac(keys, signed(sessionId, issued), sig)) return 'invalid';
      const now = Math.floor(nowMs / 1000);
      if (issued > now + FUTURE_SKEW) return 'invalid';
      return now - issued > maxAge ? 'expired' : 'ok';
    },
  };
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const TOKEN_PROBLEM: Record<Exclude<TokenVerdict, 'ok'>, string> = {
  missing: 'The request carries no CSRF token (_csrf field or X-CSRF-Token header).',
  invalid: 'The CSRF token is not valid for this session. Reload the form and try again.',
  expired: 'The CSRF token has expired. Reload the form and try again.',
};

// What a person is told on the HTML page: a form they can reload, not token mechanics.
const TOKEN_PAGE_TEXT: Record<Exclude<TokenVerdict, 'ok'>, LocalDetail> = {
  missing: {
    de: 'Dem Formular fehlt sein Sicherheitsmerkmal. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
    en: 'The form lacks its security token. Reload the page and try again.',
  },
  invalid: {
    de: 'Das Formular gehört nicht zu Ihrer Anmeldung. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
    en: 'The form does not belong to your session. Reload the page and try again.',
  },
  expired: {
    de: 'Das Formular ist abgelaufen. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
    en: 'The form has expired. Reload the page and try again.',
  },
};

const ORIGIN_PAGE_TEXT: LocalDetail = {
  de: 'Die Anfrage kam von einer anderen Website und wurde zu Ihrem Schutz abgelehnt.',
  en: 'The request came from another website and was refused to protect you.',
};

export function tokenOf(request: Pick<CsrfRequest, 'headers' | 'body'>): string | undefined {
  const header = request.headers[CSRF_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  const body = request.body;
  if (typeof body === 'object' && body !== null && Object.hasOwn(body, CSRF_FIELD)) {
    const field = (body as Record<string, unknown>)[CSRF_FIELD];
    if (typeof field === 'string') return field;
  }
  return undefined;
}

export function createCsrfGuard(options: CsrfGuardOptions): CsrfGuard {
  const tokens = createCsrfTokens(options);
  return {
    token: (sessionId, nowMs) => tokens.issue(sessionId, nowMs),
    check(request, nowMs) {
      if (SAFE.has(request.method)) return;
      if (request.auth === 'none' && !request.login) return;
      const strict = request.login || request.auth === 'session';
      const origins =
        request.publicOrigin === undefined ? options.origins : [...options.origins, request.publicOrigin];
      const origin = checkOrigin(request.headers, origins, strict ? 'strict' : 'lenient');
      if (!origin.ok)
        throw new CsrfError('origin', `Cross-site request refused: ${origin.reason}.`, ORIGIN_PAGE_TEXT);
      if (request.login || request.auth !== 'session') return;
      const verdict = tokens.verify(tokenOf(request), request.sessionId ?? '', nowMs);
      if (verdict !== 'ok') throw new CsrfError('token', TOKEN_PROBLEM[verdict], TOKEN_PAGE_TEXT[verdict]);
    },
  };
}
