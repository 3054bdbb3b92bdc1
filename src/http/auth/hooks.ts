// Fastify glue for authentication and CSRF, one preHandler hook (after body parsing, since
// `_csrf` may be a form field; before the method-override hook and the handler):
//   1. authenticate (memoised per request: the dispatcher's ctx.user reuses it);
//   2. a failed Basic attempt → 401 / 429;
//   3. CSRF check on the real method (a form POST carrying _method=DELETE is checked as POST).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CsrfGuard } from '../csrf/index.ts';
import type { Principal } from '../resource/types.ts';
import type { SessionCookies } from '../session/index.ts';
import type { Authentication, Authenticator, LoginResult } from './authenticator.ts';
import { authenticationError } from './errors.ts';

export interface SecurityOptions {
  readonly authenticator: Authenticator;
  readonly cookies: SessionCookies;
  readonly csrf: CsrfGuard;
  /** True for the log-in request (e.g. POST to /sitzung), which gets the origin check only. */
  readonly isLogin: (request: FastifyRequest) => boolean;
  readonly now?: () => number;
}

export interface Security {
  /** The %u of the access log for a finished request (undefined if never authenticated). */
  logUser(raw: object): string | undefined;
  /** Memoised per request. */
  authentication(request: FastifyRequest): Promise<Authentication>;
  /** For ResourceAppOptions.authenticate (fills ctx.user). */
  principal(request: FastifyRequest): Promise<Principal | null>;
  /** The `_csrf` value for forms rendered for this request, or null when there is no session. */
  csrfToken(request: FastifyRequest): Promise<string | null>;
  /** Log in: checks the password (rate-limited) and on success sets the session cookie. */
  login(
    request: FastifyRequest,
    reply: FastifyReply,
    username: string,
    password: string,
  ): Promise<LoginResult>;
  /** Log out: clears the cookie (the signed cookie cannot be revoked server-side before expiry). */
  logout(reply: FastifyReply): void;
}

export function createSecurity(options: SecurityOptions): Security {
  const now = options.now ?? Date.now;
  const memo = new WeakMap<object, Promise<Authentication>>();
  const settled = new WeakMap<object, Authentication>();
  const authentication = (request: FastifyRequest): Promise<Authentication> => {
    let result = memo.get(request.raw);
    if (!result) {
      result = options.authenticator.authenticate({
        authorization: request.headers.authorization,
        sessionCookie: request.cookies?.[options.cookies.name],
        address: request.ip,
      });
      memo.set(request.raw, result);
      result.then(
        (auth) => settled.set(request.raw, auth),
        () => undefined,
      );
    }
    return result;
  };
  return {
    logUser: (raw) => settled.get(raw)?.logUser,
    authentication,
    principal: async (request) => (await authentication(request)).principal,
    async csrfToken(request) {
      const session = (await authentication(request)).session;
      return session ? options.csrf.token(session.id, now()) : null;
    },
    async login(request, reply, username, password) {
      const result = await options.authenticator.checkPassword(username, password, request.ip);
      if (result.ok) options.cookies.set(reply, result.principal.id, now());
      return result;
    },
    logout: (reply) => options.cookies.clear(reply),
  };
}

export function registerSecurityHooks(
  app: FastifyInstance,
  security: Security,
  options: SecurityOptions,
): void {
  const now = options.now ?? Date.now;
  app.addHook('preHandler', async (request) => {
    const auth = await security.authentication(request);
    const error = authenticationError(auth);
    if (error) throw error;
    options.csrf.check(
      {
        method: request.method,
        headers: request.headers,
        body: request.body,
        auth: auth.via ?? 'none',
        sessionId: auth.session?.id ?? null,
        login: options.isLogin(request),
      },
      now(),
    );
  });
}
