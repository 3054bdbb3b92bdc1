import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSessionCodec } from '../session/index.ts';
import { authenticationError, createAuthenticator, type AccountRecord } from './authenticator.ts';
import { MemoryLoginLimiter } from './rate-limit.ts';

const ACCOUNTS: AccountRecord[] = [
  { id: 1, username: 'alice', role: 'staff', passwordHash: 'hash:wonder:land' },
  { id: 2, username: 'bob', role: 'member', passwordHash: 'hash:pw' },
];
const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

function setup() {
  let now = Date.UTC(2026, 0, 1);
  const verified: string[] = [];
  const limitsReached: number[] = [];
  const sessions = createSessionCodec({ secrets: ['s'.repeat(40)] });
  const auth = createAuthenticator({
    findUser: async (name) => ACCOUNTS.find((a) => a.username === name) ?? null,
    findUserById: async (id) => ACCOUNTS.find((a) => a.id === id) ?? null,
    verifyPassword: async (pw, hash) => {
      verified.push(hash);
      return hash === `hash:${pw}`;
    },
    sessions,
    dummyHash: 'hash:dummy-never-matches',
    limiter: new MemoryLoginLimiter({ maxFailures: 3, now: () => now }),
    now: () => now,
    onLimitReached: async () => void limitsReached.push(now),
  });
  return { auth, sessions, verified, limitsReached, tick: (ms: number) => (now += ms), now: () => now };
}
const input = (authorization?: string, sessionCookie?: string) => ({
  authorization,
  sessionCookie,
  address: '192.0.2.7',
});

test('Basic, then session cookie', async () => {
  const { auth, sessions, now } = setup();
  const ok = await auth.authenticate(input(basic('alice:wonder:land')));
  assert.deepEqual(ok.principal, { id: 1, username: 'alice', role: 'staff' });
  assert.equal(ok.via, 'basic');
  const cookie = sessions.issue(2, now()).value;
  const viaCookie = await auth.authenticate(input(undefined, cookie));
  assert.equal(viaCookie.principal?.username, 'bob');
  assert.equal(viaCookie.via, 'session');
  assert.ok(viaCookie.session);
  const both = await auth.authenticate(input(basic('alice:wonder:land'), cookie));
  assert.equal(both.via, 'basic', 'Basic wins over the cookie');
  const ghost = await auth.authenticate(input(undefined, sessions.issue(99, now()).value));
  assert.equal(ghost.principal, null, 'a deleted account is anonymous');
  assert.deepEqual(await auth.authenticate(input()), {
    principal: null,
    via: null,
    session: null,
    logUser: undefined,
    failure: null,
  });
});

test('failures keep the name for %u and map to 401 / 429', async () => {
  const { auth, verified, limitsReached, tick } = setup();
  const wrong = await auth.authenticate(input(basic('alice:nope')));
  assert.equal(wrong.principal, null);
  assert.equal(wrong.logUser, 'alice');
  assert.equal(authenticationError(wrong)?.status, 401);
  assert.match(authenticationError(wrong)?.headers['WWW-Authenticate'] ?? '', /^Basic realm=/);
  const unknown = await auth.authenticate(input(basic('mallory:x')));
  assert.equal(unknown.failure, 'bad-credentials');
  assert.equal(unknown.unknownUser, true, 'logged as AH01618, not AH01617');
  assert.equal(wrong.unknownUser, false);
  assert.equal(wrong.limitReached, undefined);
  assert.equal(verified.at(-1), 'hash:dummy-never-matches', 'unknown users cost a hash too');
  const malformed = await auth.authenticate(input(basic('alice')));
  assert.equal(malformed.failure, 'malformed');
  assert.equal(malformed.logUser, 'alice');
  await auth.authenticate(input(basic('alice:nope')));
  const third = await auth.authenticate(input(basic('alice:nope')));
  assert.deepEqual(
    third.limitReached,
    { scope: 'account', retryAfterSeconds: 15 * 60 },
    'the failure that trips',
  );
  assert.equal(limitsReached.length, 1, 'the application heard of it once, before the answer');
  const blocked = await auth.authenticate(input(basic('alice:wonder:land')));
  assert.equal(blocked.failure, 'rate-limited', 'even the right password is refused while blocked');
  const error = authenticationError(blocked);
  assert.equal(error?.status, 429);
  assert.equal(error?.headers['Retry-After'], String(15 * 60));
  assert.equal(limitsReached.length, 1, 'refusals while blocked fill nothing');
  tick(15 * 60_000);
  assert.equal((await auth.authenticate(input(basic('alice:wonder:land')))).via, 'basic');
});

test('a verified Basic credential is remembered until the stored hash changes', async () => {
  const accounts = new Map<string, AccountRecord>([
    ['carol', { id: 3, username: 'carol', role: 'member', passwordHash: 'hash:one' }],
  ]);
  const verified: string[] = [];
  const auth = createAuthenticator({
    findUser: async (name) => accounts.get(name) ?? null,
    findUserById: async () => null,
    verifyPassword: async (pw, hash) => {
      verified.push(hash);
      return hash === `hash:${pw}`;
    },
    sessions: createSessionCodec({ secrets: ['s'.repeat(40)] }),
    dummyHash: 'hash:dummy-never-matches',
  });
  for (let i = 0; i < 5; i++)
    assert.equal((await auth.authenticate(input(basic(' Carol:one')))).via, 'basic', `request ${i + 1}`);
  assert.equal(verified.length, 1, 'one hash verification for five requests');
  // `shelfmark user passwd carol`: the old password must stop working at once.
  accounts.set('carol', { id: 3, username: 'carol', role: 'member', passwordHash: 'hash:two' });
  assert.equal((await auth.authenticate(input(basic('carol:one')))).failure, 'bad-credentials');
  assert.equal((await auth.authenticate(input(basic('carol:two')))).via, 'basic');
  assert.equal((await auth.authenticate(input(basic('carol:two')))).via, 'basic');
  assert.equal(verified.length, 3);
});

test('a moved epoch ends sessions issued under the old one and forgets remembered credentials (ADR 0063)', async () => {
  const accounts = new Map<number, AccountRecord>([
    [4, { id: 4, username: 'dora', role: 'member', passwordHash: 'hash:same', epoch: 7 }],
  ]);
  const verified: string[] = [];
  const sessions = createSessionCodec({ secrets: ['s'.repeat(40)] });
  const auth = createAuthenticator({
    findUser: async (name) => [...accounts.values()].find((a) => a.username === name) ?? null,
    findUserById: async (id) => accounts.get(id) ?? null,
    verifyPassword: async (pw, hash) => {
      verified.push(hash);
      return hash === `hash:${pw}`;
    },
    sessions,
    dummyHash: 'hash:dummy-never-matches',
  });
  const now = Date.now();
  const current = sessions.issue(4, now, { epoch: 7 }).value;
  const stale = sessions.issue(4, now, { epoch: 6 }).value;
  assert.equal((await auth.authenticate(input(undefined, current))).principal?.username, 'dora');
  assert.equal((await auth.authenticate(input(undefined, stale))).principal, null, 'an older epoch');
  const login = await auth.checkPassword('dora', 'same', '192.0.2.7');
  assert.ok(login.ok && login.epoch === 7, 'a log-in learns the epoch for its cookie');
  assert.equal((await auth.authenticate(input(basic('dora:same')))).via, 'basic');
  assert.equal(verified.length, 1, 'remembered');

  // Same hash, new epoch (a lock and unlock, a role change, a reset to the same hash): the
  // remembered credential is verified afresh, the old session is over.
  accounts.set(4, { id: 4, username: 'dora', role: 'member', passwordHash: 'hash:same', epoch: 8 });
  assert.equal((await auth.authenticate(input(basic('dora:same')))).via, 'basic');
  assert.equal(verified.length, 2, 'the epoch moved: verified again, not taken from the cache');
  assert.equal((await auth.authenticate(input(undefined, current))).principal, null, 'epoch 7 is over');
});

test('a locked account cannot log in, its sessions and remembered credentials end', async () => {
  const accounts = new Map<number, AccountRecord>([
    [5, { id: 5, username: 'emil', role: 'member', passwordHash: 'hash:geheim', epoch: 0 }],
  ]);
  const verified: string[] = [];
  const sessions = createSessionCodec({ secrets: ['s'.repeat(40)] });
  const auth = createAuthenticator({
    findUser: async (name) => [...accounts.values()].find((a) => a.username === name) ?? null,
    findUserById: async (id) => accounts.get(id) ?? null,
    verifyPassword: async (pw, hash) => {
      verified.push(hash);
      return hash === `hash:${pw}`;
    },
    sessions,
    dummyHash: 'hash:dummy-never-matches',
  });
  const cookie = sessions.issue(5, Date.now(), { epoch: 0 }).value;
  assert.equal((await auth.authenticate(input(basic('emil:geheim')))).via, 'basic');
  // Locked without moving the epoch (the lock alone must suffice).
  accounts.set(5, {
    id: 5,
    username: 'emil',
    role: 'member',
    passwordHash: 'hash:geheim',
    epoch: 0,
    locked: true,
  });
  const refused = await auth.authenticate(input(basic('emil:geheim')));
  assert.equal(refused.failure, 'bad-credentials', 'Basic: the remembered credential no longer counts');
  assert.equal(verified.at(-1), 'hash:dummy-never-matches', 'checked like an unknown name');
  assert.equal((await auth.checkPassword('emil', 'geheim', '192.0.2.8')).ok, false, 'the log-in form');
  assert.equal((await auth.authenticate(input(undefined, cookie))).principal, null, 'the session');
});

test('a password check asks for the counts and the account in the same turn; a refusal still wins (ADR 0111)', async () => {
  const accounts = new Map<string, AccountRecord>([
    ['erna', { id: 5, username: 'erna', role: 'member', passwordHash: 'hash:pw' }],
  ]);
  // What each turn of the event loop asked for: asks of one turn can share a statement.
  let turn: string[] = [];
  const turns: string[][] = [];
  const ask = (what: string) => {
    if (turn.length === 0)
      queueMicrotask(() => {
        turns.push(turn);
        turn = [];
      });
    turn.push(what);
  };
  const limiter = new MemoryLoginLimiter({ maxFailures: 2 });
  const auth = createAuthenticator({
    findUser: async (name) => {
      ask('account');
      return accounts.get(name) ?? null;
    },
    findUserById: async () => null,
    verifyPassword: async (pw, hash) => hash === `hash:${pw}`,
    sessions: createSessionCodec({ secrets: ['s'.repeat(40)] }),
    dummyHash: 'hash:dummy-never-matches',
    limiter: {
      check: (key) => {
        ask('counts');
        return limiter.check(key);
      },
      recordFailure: (key) => limiter.recordFailure(key),
      reset: (key) => limiter.reset(key),
    },
    addressLimiter: new MemoryLoginLimiter({ maxFailures: 50 }),
  });
  const check = () => auth.checkPassword('erna', 'pw', '192.0.2.5');
  assert.equal((await check()).ok, true, 'first log-in: verified');
  assert.deepEqual(turns, [['counts'], ['counts', 'account']], 'checked, then read together under the gate');
  turns.length = 0;
  assert.equal((await check()).ok, true, 'remembered');
  assert.deepEqual(turns, [['counts', 'account']], 'a remembered credential: one turn');
  await limiter.recordFailure('erna\u0000192.0.2.5');
  await limiter.recordFailure('erna\u0000192.0.2.5');
  const refused = await check();
  assert.equal(
    !refused.ok && refused.reason,
    'rate-limited',
    'a remembered credential does not pass a limit',
  );
});
