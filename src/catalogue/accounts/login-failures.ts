// Failed log-ins kept in the database (docs/decisions/0034), so every worker and every machine
// on one database counts the same attempts, and a restart forgets nothing. The same sliding
// window as MemoryLoginLimiter: one row per failure; `check` reads the newest `maxFailures` of a
// key inside the window. Keys (a user name and an address) are stored as SHA-256 only: a user
// who typed a password into the name field leaves no trace of it. Rows outside the window are
// pruned for the key on each failure and for the whole table every `pruneEvery` failures, so
// the table holds at most about (keys × maxFailures) rows of the current window.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { LimitVerdict, LoginLimiter } from '../../http/auth/index.ts';
import type { DB } from '../tables.ts';
import { createLoginReader, type LoginReader } from './login-reader.ts';

export interface DatabaseLimiterOptions {
  readonly maxFailures?: number;
  /** Shared by the limiters one request checks together: their reads become one statement. */
  readonly reader?: LoginReader;
  readonly windowMs?: number;
  readonly now?: () => number;
  readonly pruneEvery?: number;
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('base64url');

export function createDatabaseLoginLimiter(
  db: Kysely<DB>,
  options: DatabaseLimiterOptions = {},
): LoginLimiter {
  const max = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const now = options.now ?? Date.now;
  const pruneEvery = options.pruneEvery ?? 64;
  const reader = options.reader ?? createLoginReader(db);
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
