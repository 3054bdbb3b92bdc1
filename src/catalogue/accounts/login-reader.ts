// What a password check reads before it can answer: the newest failures of the user name and of
// the address (the two limiters, ADR 0034), and the account (HTTP Basic, log-in). Asked in the
// same turn of the event loop, they share one statement: a Basic request whose credential is
// remembered (the credential cache, ADR 0035) sends one statement instead of two, and a first log-in two instead of
// three (ADR 0111). Every read is a prepared statement (ADR 0047, 0068).
import { sql, type Kysely } from 'kysely';
import { param, prepare } from '../../storage/index.ts';
import type { DB, Role } from '../tables.ts';
import {
  accountOf,
  ACCOUNT_BY_USERNAME,
  ACCOUNT_COLUMNS,
  liveAccountRows,
  type Account,
  type AccountFields,
} from './rows.ts';
import { isValidUsername, normaliseUsername } from './store.ts';

/** A key's newest failures after `since`, at most `max` (the limiter's window and limit). */
export type FailureAsk = { readonly key: string; readonly since: number; readonly max: number };
export type Failure = { at: number | string };

/**
 * A key's newest failures inside the window: read for the user name and for the address of
 * every log-in and every HTTP Basic request.
 */
function recentOf(db: Kysely<DB>, slot: string) {
  return db
    .selectFrom('login_failures')
    .select('at')
    .where('key_hash', '=', param<string>(`key${slot}`))
    .where('at', '>', param<number>(`since${slot}`))
    .orderBy('at', 'desc')
    .limit(param<number>(`max${slot}`));
}

type PairParams = { key0: string; since0: number; max0: number; key1: string; since1: number; max1: number };

const RECENT = prepare<{ key0: string; since0: number; max0: number }, Failure, DB>((db: Kysely<DB>) =>
  recentOf(db, '0'),
);

/** Two keys' newest failures, told apart by `slot`: a log-in checks its user name and address together. */
const RECENT_PAIR = prepare<PairParams, Failure & { slot: number }, DB>((db: Kysely<DB>) =>
  db
    .selectFrom(recentOf(db, '0').as('a'))
    .select(['a.at', sql<number>`0`.as('slot')])
    .unionAll(db.selectFrom(recentOf(db, '1').as('b')).select(['b.at', sql<number>`1`.as('slot')])),
);

/** The account's columns as one union's rows carry them; a failure's row has them null. */
type AccountColumns = { [K in keyof AccountFields]: AccountFields[K] | null };

/** A failure's row in the union: `at` and its slot, the account's columns null (typed, for PostgreSQL). */
const failureColumns = (alias: 'a' | 'b', slot: number) =>
  [
    sql<number | string | null>`${sql.ref(`${alias}.at`)}`.as('at'),
    sql<number>`${sql.lit(slot)}`.as('slot'),
    sql<number | null>`cast(null as integer)`.as('id'),
    sql<string | null>`cast(null as text)`.as('username'),
    sql<Role | null>`cast(null as text)`.as('role'),
    sql<string | null>`cast(null as text)`.as('passwordHash'),
    sql<number | null>`cast(null as integer)`.as('epoch'),
    sql<string | null>`cast(null as text)`.as('locked_at'),
  ] as const;

/**
 * A Basic request's three reads at once: the name's and the address's failures (slots 0 and 1)
 * and the live account of the user name (slot 2, at most one row).
 */
const RECENT_PAIR_AND_ACCOUNT = prepare<
  PairParams & { username: string },
  { at: number | string | null; slot: number } & AccountColumns,
  DB
>((db: Kysely<DB>) =>
  db
    .selectFrom(recentOf(db, '0').as('a'))
    .select(failureColumns('a', 0))
    .unionAll(db.selectFrom(recentOf(db, '1').as('b')).select(failureColumns('b', 1)))
    .unionAll(
      liveAccountRows(db)
        .where('accounts.username', '=', param<string>('username'))
        .select([
          sql<number | null>`cast(null as bigint)`.as('at'),
          sql<number>`2`.as('slot'),
          ...ACCOUNT_COLUMNS,
        ]),
    ),
);

/** Reads a log-in's failures and account; asks made in the same turn of the event loop share a statement. */
export interface LoginReader {
  recent(ask: FailureAsk): Promise<Failure[]>;
  /** The live account of a user name (normalised here), or null. */
  account(username: string): Promise<Account | null>;
}

type Pending<T, A> = { ask: A; done: PromiseWithResolvers<T> };

const pairParams = (one: FailureAsk, two: FailureAsk): PairParams => ({
  ...{ key0: one.key, since0: one.since, max0: one.max },
  ...{ key1: two.key, since1: two.since, max1: two.max },
});

export function createLoginReader(db: Kysely<DB>): LoginReader {
  let failures: Pending<Failure[], FailureAsk>[] = [];
  let accounts: Pending<Account | null, string>[] = [];

  /** Two failure asks and an account ask: one statement. */
  async function trio(
    one: Pending<Failure[], FailureAsk>,
    two: Pending<Failure[], FailureAsk>,
    who: Pending<Account | null, string>,
  ) {
    const rows = await RECENT_PAIR_AND_ACCOUNT.execute(db, {
      ...pairParams(one.ask, two.ask),
      username: who.ask,
    });
    one.done.resolve(rows.filter((r) => Number(r.slot) === 0).map(({ at }) => ({ at: at! })));
    two.done.resolve(rows.filter((r) => Number(r.slot) === 1).map(({ at }) => ({ at: at! })));
    const row = rows.find((r) => Number(r.slot) === 2);
    who.done.resolve(row ? accountOf(row as AccountFields) : null);
  }

  async function pair(one: Pending<Failure[], FailureAsk>, two: Pending<Failure[], FailureAsk>) {
    const rows = await RECENT_PAIR.execute(db, pairParams(one.ask, two.ask));
    one.done.resolve(rows.filter((r) => Number(r.slot) === 0));
    two.done.resolve(rows.filter((r) => Number(r.slot) === 1));
  }

  async function alone(one: Pending<Failure[], FailureAsk>) {
    one.done.resolve(
      await RECENT.execute(db, { key0: one.ask.key, since0: one.ask.since, max0: one.ask.max }),
    );
  }

  async function accountAlone(who: Pending<Account | null, string>) {
    const row = await ACCOUNT_BY_USERNAME.executeTakeFirst(db, { username: who.ask });
    who.done.resolve(row ? accountOf(row) : null);
  }

  /** This turn's asks, in the order made: failures two at a time, each pair with an account if one waits. */
  async function flush(asked: typeof failures, named: typeof accounts) {
    const run = async (asks: { done: { reject(error: unknown): void } }[], read: () => Promise<void>) => {
      try {
        await read();
      } catch (error) {
        for (const ask of asks) ask.done.reject(error);
      }
    };
    for (let i = 0; i < asked.length; i += 2) {
      const [one, two] = [asked[i]!, asked[i + 1]];
      const who = two ? named.shift() : undefined;
      if (two && who) await run([one, two, who], () => trio(one, two, who));
      else if (two) await run([one, two], () => pair(one, two));
      else await run([one], () => alone(one));
    }
    for (const who of named) await run([who], () => accountAlone(who));
  }

  const schedule = () => {
    if (failures.length + accounts.length > 0) return;
    queueMicrotask(() => {
      const [asked, named] = [failures, accounts];
      [failures, accounts] = [[], []];
      void flush(asked, named);
    });
  };

  return {
    recent(ask) {
      const done = Promise.withResolvers<Failure[]>();
      schedule();
      failures.push({ ask, done });
      return done.promise;
    },
    account(username) {
      const name = normaliseUsername(username);
      if (!isValidUsername(name)) return Promise.resolve(null);
      const done = Promise.withResolvers<Account | null>();
      schedule();
      accounts.push({ ask: name, done });
      return done.promise;
    },
  };
}
