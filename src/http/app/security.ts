// Wires the request pipeline of the layer (docs/decisions/0030–0034), in this order:
//   @fastify/cookie (onRequest) → body parsers (preParsing) → who is asking, for ctx.user and
//   the access log's %u (preHandler) → authentication failures and CSRF on the real method
//   (preHandler) → the `_method` override of form POSTs (preHandler) → the resource handler.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { setLogUser } from '../../logging/access/index.ts';
import { registerBodyParsers } from '../body/index.ts';
import { createAuthenticator, createSecurity, registerSecurityHooks } from '../auth/index.ts';
import type { Authenticator, Security, SecurityOptions } from '../auth/index.ts';
import { createCsrfGuard, DEFAULT_CSRF_MAX_AGE, type CsrfGuard } from '../csrf/index.ts';
import { overrideOf, registerMethodOverride } from '../method-override/index.ts';
import { createSessionCodec, createSessionCookies, type SessionCookies } from '../session/index.ts';
import type { ResourceAppOptions, SecurityConfig } from './options.ts';
import { requestState } from './request-state.ts';
import { registerPrincipal } from './principal.ts';

export interface LayerSecurity {
  readonly security: Security;
  readonly authenticator: Authenticator;
  readonly cookies: SessionCookies;
  readonly csrf: CsrfGuard;
  readonly now: () => number;
  /** The `_csrf` value for forms of this session. */
  tokenFor(sessionId: string): string;
}

/** POST to the log-in path, not a form asking for DELETE (log-out needs the full CSRF check). */
export function isLoginRequest(request: FastifyRequest, loginPath: string | undefined): boolean {
  if (loginPath === undefined || request.method !== 'POST') return false;
  const resolved = requestState(request.raw)?.resolved;
  if (resolved?.kind !== 'resource' || resolved.path !== loginPath) return false;
  try {
    return overrideOf(request) === null;
  } catch {
    return false;
  }
}

export function createLayerSecurity(
  config: SecurityConfig,
  baseUrl: string,
  loginPath: string | undefined,
): { layer: LayerSecurity; options: SecurityOptions } {
  const now = config.now ?? Date.now;
  const sessions = createSessionCodec({
    secrets: config.secrets,
    ...(config.sessionTtlSeconds !== undefined && { ttlSeconds: config.sessionTtlSeconds }),
  });
  const authenticator = createAuthenticator({
    findUser: config.findUser,
    findUserById: config.findUserById,
    verifyPassword: config.verifyPassword,
    sessions,
    now,
    ...(config.limiter !== undefined && { limiter: config.limiter }),
    ...(config.dummyHash !== undefined && { dummyHash: config.dummyHash }),
  });
  const maxAge = config.csrfMaxAgeSeconds ?? DEFAULT_CSRF_MAX_AGE;
  const csrf = createCsrfGuard({
    secrets: config.secrets,
    origins: config.origins ?? [new URL(baseUrl).origin],
    maxAgeSeconds: maxAge,
  });
  const cookies = createSessionCookies({ codec: sessions, baseUrl });
  const options: SecurityOptions = {
    authenticator,
    cookies,
    csrf,
    now,
    isLogin: (request) => isLoginRequest(request, loginPath),
  };
  // Tokens are issued for the start of a time bucket, so a page rendered twice within it is the
  // same bytes (stable ETag, 304s for logged-in readers); it stays valid maxAge minus a bucket.
  const bucketMs = Math.max(1000, Math.min(10 * 60_000, (maxAge * 1000) / 12));
  const tokenFor = (sessionId: string) => csrf.token(sessionId, Math.floor(now() / bucketMs) * bucketMs);
  return {
    layer: { security: createSecurity(options), authenticator, cookies, csrf, now, tokenFor },
    options,
  };
}

export async function registerRequestPipeline(
  app: FastifyInstance,
  o: ResourceAppOptions,
  secured: { layer: LayerSecurity; options: SecurityOptions } | undefined,
): Promise<void> {
  // No secret for the plugin: the session value carries its own HMAC (session/codec.ts).
  await app.register(fastifyCookie);
  registerBodyParsers(app, o.bodyLimit !== undefined ? { limit: o.bodyLimit } : {});
  // For plain routes (requestPrincipal): the same answer as ctx.user.
  const authenticate = o.authenticate;
  if (secured) registerPrincipal(app, (request) => secured.layer.security.principal(request));
  else if (authenticate) registerPrincipal(app, authenticate);
  if (secured) {
    const { security } = secured.layer;
    app.addHook('preHandler', async (request) => {
      // Memoised: the security hook and the dispatcher reuse this authentication.
      const auth = await security.authentication(request);
      if (auth.logUser !== undefined) setLogUser(request.raw, auth.logUser);
    });
    registerSecurityHooks(app, security, secured.options);
  }
  registerMethodOverride(app);
}
