// Failed log-ins kept in the database (docs/decisions/0034), so every worker and every machine
// on one database counts the same attempts, and a restart forgets nothing. The same sliding
// window as MemoryLoginLimiter: one row per failure; `check` reads the newest `maxFailures` of a
// key inside the window. Keys (a user name and an address) are stored as SHA-256 only: a user
// who typed a password into the name field leaves no trace of it. Rows outside the window are
// pruned for the key on each failure and for the whole table every `pruneEvery` failures, so
// the table holds at most about (keys × maxFailures) rows of the current window.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { LimitVerdict, LoginLimiter } from '../../http/auth/index.ts';
import { param, prepare } from '../../storage/index.ts';
import type { DB } from '../tables.ts';

export interface DatabaseLimiterOptions {
  readonly maxFailures?: number;
  /** Shared by the limiters one request checks together: their reads become one statement. */
  readonly reader?: FailureReader;
  readonly windowMs?: number;
  readonly now?: () => number;
  readonly pruneEvery?: number;
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('base64url');

/**
 * A key's newest failures inside the window: read for the user name and for the address of
 * every log-in and every HTTP Basic request, so prepared (ADR 0047, 0068).
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

type Ask = { readonly key: string; readonly since: number; readonly max: number };
type Recent = { at: number | string };

const RECENT = prepare<{ key0: string; since0: number; max0: number }, Recent, DB>((db: Kysely<DB>) =>
  recentOf(db, '0'),
);

/** Two keys' newest failures, told apart by `slot`: a log-in checks its user name and address together. */
const RECENT_PAIR = prepare<
  { key0: string; since0: number; max0: number; key1: string; since1: number; max1: number },
  Recent & { slot: number },
  DB
>((db: Kysely<DB>) =>
  db
    .selectFrom(recentOf(db, '0').as('a'))
    .select(['a.at', sql<number>`0`.as('slot')])
    .unionAll(db.selectFrom(recentOf(db, '1').as('b')).select(['b.at', sql<number>`1`.as('slot')])),
);

/** Reads keys' newest failures; asks made in the same turn of the event loop share a statement. */
export interface FailureReader {
  recent(ask: Ask): Promise<Recent[]>;
}

export function createFailureReader(db: Kysely<DB>): FailureReader {
  let pending: { ask: Ask; done: PromiseWithResolvers<Recent[]> }[] = [];

  async function flush(batch: typeof pending) {
    for (let i = 0; i < batch.length; i += 2) {
      const [one, two] = [batch[i]!, batch[i + 1]];
      try {
        const first = { key0: one.ask.key, since0: one.ask.since, max0: one.ask.max };
        if (!two) {
          one.done.resolve(await RECENT.execute(db, first));
          continue;
        }
        const rows = await RECENT_PAIR.execute(db, {
          ...first,
          ...{ key1: two.ask.key, since1: two.ask.since, max1: two.ask.max },
        });
        one.done.resolve(rows.filter((r) => Number(r.slot) === 0));
        two.done.resolve(rows.filter((r) => Number(r.slot) === 1));
      } catch (error) {
        one.done.reject(error);
        two?.done.reject(error);
      }
    }
  }

  return {
    recent(ask) {
      const done = Promise.withResolvers<Recent[]>();
      if (pending.length === 0)
        queueMicrotask(() => {
          const batch = pending;
          pending = [];
          void flush(batch);
        });
      pending.push({ ask, done });
      return done.promise;
    },
  };
}

export function createDatabaseLoginLimiter(
  db: Kysely<DB>,
  options: DatabaseLimiterOptions = {},
): LoginLimiter {
  const max = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const now = options.now ?? Date.now;
  const pruneEvery = options.pruneEvery ?? 64;
  const reader = options.reader ?? createFailureReader(db);
  let sincePrune = 0;

  return {
    async check(key): Promise<LimitVerdict> {
      const at = now();
      const rows = await reader.recent({ key: hashKey(key), since: at - windowMs, max });
      if (rows.length < max) return { allowed: true };
      // The max-th newest failure: when it leaves the window, one more attempt is allowed.
      const oldest = Number(rows[max - 1]?.at ?? at);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)) };
    },

    async recordFailure(key) {
      const at = now();
      const keyHash = hashKey(key);
      await db.insertInto('login_failures').values({ key_hash: keyHash, at }).execute();
      await db
        .deleteFrom('login_failures')
        .where('key_hash', '=', keyHash)
        .where('at', '<=', at - windowMs)
        .execute();
      if (++sincePrune >= pruneEvery) {
        sincePrune = 0;
        await db
          .deleteFrom('login_failures')
          .where('at', '<=', at - windowMs)
          .execute();
      }
    },

    async reset(key) {
      await db.deleteFrom('login_failures').where('key_hash', '=', hashKey(key)).execute();
    },
  };
}
