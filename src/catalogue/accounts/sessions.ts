// The session records the layer's authenticator asks for (ADR 0076, SessionRecords): a row per
// log-in in `sessions` (migration 0016), keyed by the SHA-256 of the cookie's random session id
// (the database never holds the id itself, which CSRF tokens are bound to). The account read
// each session request makes anyway (its role, epoch and lock, ADR 0063) joins the row, so
// checking it costs no extra query. Log-out deletes the row; removing an account deletes its
// rows by the foreign key (ON DELETE CASCADE), so a new account of the same person — which
// starts at epoch 0 again — can never be reached with an old cookie.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountRecord, SessionRecords } from '../../http/auth/index.ts';
import type { Session } from '../../http/session/index.ts';
import { param, prepare } from '../../storage/index.ts';
import type { DB } from '../tables.ts';
import { accountOf, liveAccounts } from './rows.ts';

const hashOf = (sessionId: string): string => createHash('sha256').update(sessionId).digest('base64url');

/** The live account of a recorded session: one primary-key read, prepared (ADR 0047). */
const ACCOUNT_BY_SESSION = prepare((db: Kysely<DB>) =>
  liveAccounts(db)
    .innerJoin('sessions', 'sessions.person_id', 'accounts.person_id')
    .where('sessions.id_hash', '=', param<string>('idHash'))
    .where('accounts.person_id', '=', param<number>('id')),
);

const iso = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString();

export function sessionRecords(db: Kysely<DB>, now: () => string): SessionRecords {
  return {
    async start(session: Session) {
      const at = now();
      await db.transaction().execute(async (trx) => {
        // Sessions past their cookie's expiry can never be used again: pruned here, at log-in,
        // so the table holds at most the sessions of the last cookie lifetime.
        await trx.deleteFrom('sessions').where('expires_at', '<', at).execute();
        await trx
          .insertInto('sessions')
          .values({
            id_hash: hashOf(session.id),
            person_id: session.userId,
            created_at: at,
            expires_at: iso(session.expires),
          })
          .execute();
      });
    },
    async accountOf(session: Session): Promise<AccountRecord | null> {
      const row = await ACCOUNT_BY_SESSION.executeTakeFirst(db, {
        idHash: hashOf(session.id),
        id: session.userId,
      });
      return row ? accountOf(row) : null;
    },
    async end(sessionId: string) {
      await db.deleteFrom('sessions').where('id_hash', '=', hashOf(sessionId)).execute();
    },
  };
}
