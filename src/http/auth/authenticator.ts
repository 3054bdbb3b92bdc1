// Who is asking? HTTP Basic first (API clients send it on every request), then the session
// cookie. Framework-free: the Fastify glue is in hooks.ts. Account storage and password hashing
// are the application's, passed in as functions (src/http knows no SQL).
import type { Principal } from '../resource/types.ts';
import type { Session, SessionCodec } from '../session/index.ts';
import { parseBasic } from './basic.ts';
import { limiterKey, MemoryLoginLimiter, type LoginLimiter } from './rate-limit.ts';

export interface AccountRecord {
  readonly id: number;
  readonly username: string;
  readonly role: Principal['role'];
  readonly passwordHash: string;
}

export interface AuthenticatorOptions {
  findUser(username: string): Promise<AccountRecord | null>;
  /** For session cookies, which carry only the id: role changes and deletions apply at once. */
  findUserById(id: number): Promise<AccountRecord | null>;
  verifyPassword(password: string, hash: string): Promise<boolean>;
  readonly sessions: SessionCodec;
  /** Default: a MemoryLoginLimiter (5 failures per 15 minutes). */
  readonly limiter?: LoginLimiter;
  /** A hash of some random password, verified when the user does not exist, so that an unknown
   * name costs as much time as a wrong password. */
  readonly dummyHash?: string;
  readonly now?: () => number;
}

export interface AuthInput {
  readonly authorization: string | undefined;
  readonly sessionCookie: string | undefined;
  /** The client address (behind a trusted proxy, the forwarded one). */
  readonly address: string;
}

export type AuthFailure = 'bad-credentials' | 'malformed' | 'rate-limited';

export interface Authentication {
  readonly principal: Principal | null;
  readonly via: 'basic' | 'session' | null;
  /** The verified session (for binding CSRF tokens), when via is 'session'. */
  readonly session: Session | null;
  /** The user name for the access log's %u, also when Basic failed. */
  readonly logUser: string | undefined;
  readonly failure: AuthFailure | null;
  readonly retryAfterSeconds?: number;
}

export type LoginResult =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly reason: 'bad-credentials' }
  | { readonly ok: false; readonly reason: 'rate-limited'; readonly retryAfterSeconds: number };

export interface Authenticator {
  authenticate(input: AuthInput): Promise<Authentication>;
  /** Username + password, rate-limited per (account, address): for Basic and for log-in forms. */
  checkPassword(username: string, password: string, address: string): Promise<LoginResult>;
}

const ANONYMOUS: Authentication = {
  principal: null,
  via: null,
  session: null,
  logUser: undefined,
  failure: null,
};
const principalOf = (a: AccountRecord): Principal => ({ id: a.id, username: a.username, role: a.role });

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const limiter = options.limiter ?? new MemoryLoginLimiter(options.now ? { now: options.now } : {});
  const now = options.now ?? Date.now;

  async function checkPassword(username: string, password: string, address: string): Promise<LoginResult> {
    const key = limiterKey(username, address);
    const limit = await limiter.check(key);
    if (!limit.allowed)
      return { ok: false, reason: 'rate-limited', retryAfterSeconds: limit.retryAfterSeconds };
    const account = await options.findUser(username);
    const hash = account?.passwordHash ?? options.dummyHash;
    const verified = hash !== undefined && (await options.verifyPassword(password, hash));
    if (account && verified) {
      await limiter.reset(key);
      return { ok: true, principal: principalOf(account) };
    }
    await limiter.recordFailure(key);
    return { ok: false, reason: 'bad-credentials' };
  }

  async function authenticate(input: AuthInput): Promise<Authentication> {
    const basic = parseBasic(input.authorization);
    if (basic.kind === 'malformed') return { ...ANONYMOUS, logUser: basic.logUser, failure: 'malformed' };
    if (basic.kind === 'credentials') {
      const result = await checkPassword(basic.username, basic.password, input.address);
      if (result.ok)
        return { ...ANONYMOUS, principal: result.principal, via: 'basic', logUser: basic.username };
      return {
        ...ANONYMOUS,
        logUser: basic.username,
        failure: result.reason,
        ...(result.reason === 'rate-limited' && { retryAfterSeconds: result.retryAfterSeconds }),
      };
    }
    const session = options.sessions.read(input.sessionCookie, now());
    if (!session) return ANONYMOUS;
    const account = await options.findUserById(session.userId);
    if (!account) return ANONYMOUS;
    return {
      ...ANONYMOUS,
      principal: principalOf(account),
      via: 'session',
      session,
      logUser: account.username,
    };
  }

  return { authenticate, checkPassword };
}
