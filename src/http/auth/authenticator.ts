// Who is asking? HTTP Basic first, then the session cookie. Framework-free; account storage and
// password hashing are the application's (src/http knows no SQL). A password check (ADR 0034,
// 0035): the name normalised once; both limiters asked before any hashing; a credential
// verified within the last minute accepted while the account's hash, epoch and lock are
// unchanged; else the verification gate, the limiters again, and the hash.
import type { Principal } from '../resource/types.ts';
import type { Session, SessionCodec } from '../session/index.ts';
import { HttpError } from '../errors/index.ts';
import { BASIC_CHALLENGE, parseBasic } from './basic.ts';
import { CredentialCache } from './credential-cache.ts';
import {
  addressLimiterKey,
  limiterKey,
  MemoryLoginLimiter,
  type LimitVerdict,
  type LoginLimiter,
} from './rate-limit.ts';
import { normaliseUsername } from './username.ts';
import { VerificationGate } from './verification-gate.ts';

export interface AccountRecord {
  readonly id: number;
  readonly username: string;
  readonly role: Principal['role'];
  readonly passwordHash: string;
  /**
   * Moved by every change that must end the account's sessions and remembered credentials
   * (password, lock, role; ADR 0063): a session cookie issued under another epoch is anonymous,
   * a remembered Basic credential is verified afresh. Absent: 0.
   */
  readonly epoch?: number;
  /** A locked account cannot log in (form or Basic) and its sessions are over. */
  readonly locked?: boolean;
}

/**
 * Server-side session records (ADR 0076): a session cookie counts only while its record lives,
 * so a log-out ends it on every worker and machine, and an account's removal ends its sessions
 * for good (a new account of the same person never finds them). The application keeps them
 * (src/http knows no SQL); without them a verified cookie counts until it expires (ADR 0032).
 */
export interface SessionRecords {
  /** Records a log-in's session (its id, user and expiry). */
  start(session: Session): Promise<void>;
  /**
   * The account of this recorded session of `session.userId`, read in one query with the record;
   * null when there is none (logged out, the account removed) or the account is not live.
   */
  accountOf(session: Session): Promise<AccountRecord | null>;
  /** Ends a session everywhere (log-out); nothing when it is already over. */
  end(sessionId: string): Promise<void>;
}

/** The account's epoch (0 for applications without epochs). */
export const epochOf = (a: AccountRecord): number => a.epoch ?? 0;

export interface AuthenticatorOptions {
  /** Called with the normalised name (normaliseUsername). */
  findUser(username: string): Promise<AccountRecord | null>;
  /** For session cookies, which carry only the id: role changes and deletions apply at once. */
  findUserById(id: number): Promise<AccountRecord | null>;
  verifyPassword(password: string, hash: string): Promise<boolean>;
  readonly sessions: SessionCodec;
  /** When given, a session cookie also needs its record (log-out ends it everywhere, ADR 0076). */
  readonly sessionRecords?: SessionRecords;
  /** Failures per (account, address). Default: a MemoryLoginLimiter (5 per 15 minutes). */
  readonly limiter?: LoginLimiter;
  /** Failures per address, whatever the account. Default: in memory, 50 per 15 minutes. */
  readonly addressLimiter?: LoginLimiter;
  /** Concurrent password hashing per address (default: 2 running, 16 waiting). */
  readonly gate?: VerificationGate;
  /** Verified Basic credentials remembered briefly (default: 60 s, 10,000 entries). */
  readonly credentialCache?: CredentialCache;
  /** A hash of some random password, verified when the user does not exist, so that an unknown
   * name costs as much time as a wrong password. */
  readonly dummyHash?: string;
  readonly now?: () => number;
  /**
   * Awaited when a failed log-in fills a limit, before the failure is answered: the application
   * moves its cache version, so no Basic answer kept before is served while the limit holds (ADR 0069).
   */
  readonly onLimitReached?: () => Promise<void>;
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
  /** With 'bad-credentials': whether no account has that name (Apache's AH01618, not AH01617). */
  readonly unknownUser?: boolean;
  /** With 'bad-credentials': this failure made the limiter refuse the next attempts (a warning). */
  readonly limitReached?: LimitReached;
}

/** Which counter a failure filled, and for how long the next attempts are refused. */
export interface LimitReached {
  readonly scope: 'account' | 'address';
  readonly retryAfterSeconds: number;
}

export type LoginResult =
  | {
      readonly ok: true;
      readonly principal: Principal;
      /** The account's session epoch, for the cookie a log-in sets. */
      readonly epoch: number;
    }
  | {
      readonly ok: false;
      readonly reason: 'bad-credentials';
      readonly unknownUser: boolean;
      readonly limitReached?: LimitReached;
    }
  | { readonly ok: false; readonly reason: 'rate-limited'; readonly retryAfterSeconds: number };

export interface Authenticator {
  authenticate(input: AuthInput): Promise<Authentication>;
  /** Username + password, rate-limited per (account, address) and per address: for Basic and for log-in forms. */
  checkPassword(username: string, password: string, address: string): Promise<LoginResult>;
}

/** Nobody authenticated (also: no authentication configured). */
export const ANONYMOUS: Authentication = {
  principal: null,
  via: null,
  session: null,
  logUser: undefined,
  failure: null,
};

const principalOf = (a: AccountRecord): Principal => ({ id: a.id, username: a.username, role: a.role });

/** Refused while the gate is full: the client may try again in a moment. */
const BUSY: LoginResult = { ok: false, reason: 'rate-limited', retryAfterSeconds: 1 };

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const clock = options.now ? { now: options.now } : {};
  const limiter = options.limiter ?? new MemoryLoginLimiter(clock);
  const addressLimiter = options.addressLimiter ?? new MemoryLoginLimiter({ ...clock, maxFailures: 50 });
  const gate = options.gate ?? new VerificationGate();
  const cache = options.credentialCache ?? new CredentialCache(clock);
  const now = options.now ?? Date.now;

  async function verdicts(accountKey: string, addressKey: string): Promise<LimitVerdict[]> {
    return Promise.all([limiter.check(accountKey), addressLimiter.check(addressKey)]);
  }

  /** The longer wait of the two limiters, or null when both allow. */
  async function limited(accountKey: string, addressKey: string): Promise<LoginResult | null> {
    const waits = (await verdicts(accountKey, addressKey)).flatMap((v) =>
      v.allowed ? [] : [v.retryAfterSeconds],
    );
    return waits.length === 0
      ? null
      : { ok: false, reason: 'rate-limited', retryAfterSeconds: Math.max(...waits) };
  }

  /** After a recorded failure: did it fill a counter? (Asked on failures only, so it costs little.) */
  async function reached(keys: readonly [string, string]): Promise<LimitReached | undefined> {
    const [account, address] = await verdicts(...keys);
    if (address && !address.allowed)
      return { scope: 'address', retryAfterSeconds: address.retryAfterSeconds };
    if (account && !account.allowed)
      return { scope: 'account', retryAfterSeconds: account.retryAfterSeconds };
    return undefined;
  }

  async function verify(
    name: string,
    password: string,
    keys: readonly [string, string],
  ): Promise<LoginResult> {
    const release = await gate.enter(keys[1]);
    if (!release) return BUSY;
    try {
      // Asked together, so a database can answer both in one statement (ADR 0111).
      const [refused, account] = await Promise.all([limited(...keys), options.findUser(name)]);
      if (refused) return refused;
      // A locked account is verified against the dummy hash like an unknown one: it cannot log
      // in, and the attempt costs (and tells) the same as a wrong password (ADR 0063).
      const usable = account && !account.locked ? account : null;
      const hash = usable?.passwordHash ?? options.dummyHash;
      const verified = hash !== undefined && (await options.verifyPassword(password, hash));
      if (usable && verified) {
        await limiter.reset(keys[0]);
        cache.remember(cache.keyOf(name, password), usable.id, usable.passwordHash, epochOf(usable));
        return { ok: true, principal: principalOf(usable), epoch: epochOf(usable) };
      }
      await Promise.all([limiter.recordFailure(keys[0]), addressLimiter.recordFailure(keys[1])]);
      const limitReached = await reached(keys);
      if (limitReached) await options.onLimitReached?.();
      return {
        ok: false,
        reason: 'bad-credentials',
        unknownUser: account === null,
        ...(limitReached && { limitReached }),
      };
    } finally {
      release();
    }
  }

  async function checkPassword(username: string, password: string, address: string): Promise<LoginResult> {
    const name = normaliseUsername(username);
    const keys = [limiterKey(name, address), addressLimiterKey(address)] as const;
    const cacheKey = cache.keyOf(name, password);
    const cached = cache.get(cacheKey);
    if (!cached) {
      const refused = await limited(...keys);
      if (refused) return refused;
    } else {
      // The counts and the account asked together: one statement on a database (ADR 0111).
      const [refused, account] = await Promise.all([limited(...keys), options.findUser(name)]);
      if (refused) return refused;
      if (
        account &&
        !account.locked &&
        account.id === cached.accountId &&
        account.passwordHash === cached.passwordHash &&
        epochOf(account) === cached.epoch
      )
        return { ok: true, principal: principalOf(account), epoch: cached.epoch };
      // The password was changed or reset, the account locked or removed: verify afresh.
      cache.forget(cacheKey);
    }
    return verify(name, password, keys);
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
        ...(result.reason === 'bad-credentials' && {
          unknownUser: result.unknownUser,
          ...(result.limitReached && { limitReached: result.limitReached }),
        }),
      };
    }
    const session = options.sessions.read(input.sessionCookie, now());
    if (!session) return ANONYMOUS;
    // The account is read on every request anyway (its role); its epoch and lock come in the same
    // row, so ending sessions everywhere costs no extra query (ADR 0063); so does the session's
    // record, joined into that read (ADR 0076).
    const account = options.sessionRecords
      ? await options.sessionRecords.accountOf(session)
      : await options.findUserById(session.userId);
    if (!account || account.locked || epochOf(account) !== session.epoch) return ANONYMOUS;
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

// The HTTP answers to a failed authentication. Only a client that tried Basic gets a 401 with a
// challenge (browsers never pop up a password dialog unasked); anonymous clients are not refused
// here — the access rules answer them with 403 (docs/access.md).
export function tooManyAttempts(retryAfterSeconds: number): HttpError {
  return new HttpError('SHELFMARK_TOO_MANY_REQUESTS', {
    detail: `Too many failed log-in attempts. Try again in ${retryAfterSeconds} seconds.`,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

export function authenticationError(auth: Authentication): HttpError | null {
  if (auth.failure === 'rate-limited') return tooManyAttempts(auth.retryAfterSeconds ?? 1);
  if (auth.failure === null) return null;
  return new HttpError('SHELFMARK_UNAUTHENTICATED', {
    detail:
      auth.failure === 'malformed' ? 'The Basic credentials are malformed.' : 'Wrong user name or password.',
    headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
  });
}
