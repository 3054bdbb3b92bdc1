// Builds the layer's authentication from ResourceAppOptions.security (docs/decisions/0030–0034):
// the authenticator (Basic, then the signed session cookie), the session cookies, the CSRF
// guard and how form tokens are issued. The hooks that use them are in pipeline.ts; a
// request's authentication is asked for through its RequestState.
import { createAuthenticator, type Authenticator, type SessionRecords } from '../auth/index.ts';
import { createCsrfGuard, DEFAULT_CSRF_MAX_AGE, type CsrfGuard } from '../csrf/index.ts';
import { createSessionCodec, createSessionCookies, type SessionCookies } from '../session/index.ts';
import type { SecurityConfig } from './options.ts';

export interface LayerAuth {
  readonly authenticator: Authenticator;
  readonly cookies: SessionCookies;
  readonly csrf: CsrfGuard;
  readonly now: () => number;
  /** Log-in records its session here, log-out ends it (ADR 0076); absent: stateless cookies. */
  readonly sessionRecords: SessionRecords | undefined;
  /** The log-in resource's path under the base: its POST gets the origin check only. */
  readonly loginPath: string | undefined;
  /** The `_csrf` value for forms of this session. */
  tokenFor(sessionId: string): string;
}

export function createLayerAuth(
  config: SecurityConfig,
  baseUrl: string,
  loginPath: string | undefined,
  clock: () => number,
): LayerAuth {
  const now = config.now ?? clock;
  const sessions = createSessionCodec({ secrets: config.secrets, ttlSeconds: config.sessionTtlSeconds });
  const authenticator = createAuthenticator({ ...config, sessions, now });
  const maxAge = config.csrfMaxAgeSeconds ?? DEFAULT_CSRF_MAX_AGE;
  const csrf = createCsrfGuard({
    secrets: config.secrets,
    origins: config.origins ?? [new URL(baseUrl).origin],
    maxAgeSeconds: maxAge,
  });
  const cookies = createSessionCookies({ codec: sessions, baseUrl });
  // Tokens are issued for the start of a time bucket, so a page rendered twice within it is the
  // same bytes (stable ETag, 304s for logged-in readers); it stays valid maxAge minus a bucket.
  const bucketMs = Math.max(1000, Math.min(10 * 60_000, (maxAge * 1000) / 12));
  const tokenFor = (sessionId: string) => csrf.token(sessionId, Math.floor(now() / bucketMs) * bucketMs);
  return { authenticator, cookies, csrf, now, loginPath, tokenFor, sessionRecords: config.sessionRecords };
}
