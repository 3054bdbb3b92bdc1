// Password resets by e-mailed link (ADR 0093). A request names an account by its user name or
// e-mail address; every live, unlocked account it names that has an address gets a fresh
// random token, of which the database keeps only the SHA-256 (`password_resets`, migration
// 0021): someone who reads the database cannot use a link. A token works once and until it
// expires. Using it sets the new password, marks this and every other open link of the account
// used, moves the session epoch and deletes the account's session records (ADR 0063, 0076):
// every session and remembered Basic credential ends — all in one transaction, so a link is
// never used twice, even by two requests at once (the second finds `used_at` set).
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { normaliseUsername } from '../../http/auth/username.ts';
import { lockSubjects } from '../changes.ts';

/** Taken by a link's use: resets are rare, so one subject serves them all. */
const RESET_SUBJECT = 'password-resets';
import { nextUpdatedAt } from '../shared/index.ts';
import type { DB } from '../tables.ts';

/** How long a link works. */
export const RESET_VALID_MINUTES = 30;
/** At most this many accounts get a link for one address (a family sharing one). */
const MAX_ACCOUNTS_PER_ADDRESS = 5;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** 32 random bytes, base64url: 43 characters. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A link to send: the token exists only here and in the mail. */
export interface IssuedReset {
  readonly resetId: number;
  readonly token: string;
  readonly personId: number;
  readonly username: string;
  readonly name: string;
  readonly email: string;
  readonly language: 'de' | 'en';
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export type ResetState =
  | {
      readonly state: 'valid';
      readonly personId: number;
      readonly username: string;
      readonly expiresAt: Date;
    }
  | { readonly state: 'used' | 'expired' };

export interface PasswordResetStore {
  /** Links for the accounts `identifier` names (user name or e-mail address); [] when none. */
  issue(identifier: string): Promise<IssuedReset[]>;
  /** What a token is now; null: no such token. */
  find(token: string): Promise<ResetState | null>;
  /**
   * Sets the password the token is for and ends the account's sessions; the state the token
   * was in when that was not possible (null: no such token).
   */
  use(token: string, passwordHash: string): Promise<{ state: 'done'; personId: number } | ResetState | null>;
}

export function createPasswordResetStore(db: Kysely<DB>, now: () => Date): PasswordResetStore {
  const accounts = (trx: Kysely<DB>) =>
    trx
      .selectFrom('accounts')
      .innerJoin('persons', 'persons.id', 'accounts.person_id')
      .where('persons.deleted_at', 'is', null)
      .where('accounts.locked_at', 'is', null)
      .where('accounts.email', 'is not', null)
      .select([
        'accounts.person_id',
        'accounts.username',
        'accounts.email',
        'accounts.language',
        'persons.vorname',
        'persons.nachname',
      ]);

  async function stateOf(trx: Kysely<DB>, token: string, at: Date): Promise<ResetState | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await trx
      .selectFrom('password_resets')
      .innerJoin('accounts', 'accounts.person_id', 'password_resets.person_id')
      .innerJoin('persons', 'persons.id', 'accounts.person_id')
      .where('persons.deleted_at', 'is', null)
      .where('password_resets.token_hash', '=', hashToken(token))
      .select([
        'password_resets.person_id',
        'password_resets.expires_at',
        'password_resets.used_at',
        'accounts.username',
      ])
      .executeTakeFirst();
    if (!row) return null;
    if (row.used_at !== null) return { state: 'used' };
    if (row.expires_at <= at.toISOString()) return { state: 'expired' };
    return {
      state: 'valid',
      personId: row.person_id,
      username: row.username,
      expiresAt: new Date(row.expires_at),
    };
  }

  return {
    async issue(identifier) {
      const given = identifier.trim();
      if (given === '') return [];
      const at = now();
      const expires = new Date(at.getTime() + RESET_VALID_MINUTES * 60_000);
      return db.transaction().execute(async (trx) => {
        const found = given.includes('@')
          ? await accounts(trx)
              .where(sql<string>`lower(accounts.email)`, '=', given.toLowerCase())
              .orderBy('accounts.person_id')
              .limit(MAX_ACCOUNTS_PER_ADDRESS)
              .execute()
          : await accounts(trx).where('accounts.username', '=', normaliseUsername(given)).execute();
        const issued: IssuedReset[] = [];
        for (const row of found) {
          const token = randomBytes(32).toString('base64url');
          const inserted = await trx
            .insertInto('password_resets')
            .values({
              person_id: row.person_id,
              token_hash: hashToken(token),
              created_at: at.toISOString(),
              expires_at: expires.toISOString(),
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          issued.push({
            resetId: Number(inserted.id),
            token,
            personId: row.person_id,
            username: row.username,
            name: `${row.vorname} ${row.nachname}`.trim(),
            email: row.email!,
            language: row.language,
            createdAt: at,
            expiresAt: expires,
          });
        }
        // Links that can no longer be used are kept a day (for the record), then pruned.
        await trx
          .deleteFrom('password_resets')
          .where('expires_at', '<', new Date(at.getTime() - 24 * 60 * 60_000).toISOString())
          .execute();
        return issued;
      });
    },

    find: (token) => stateOf(db, token, now()),

    async use(token, passwordHash) {
      return db.transaction().execute(async (trx) => {
        // Two uses of one link at once: the second waits, then finds it used (ADR 0088's lock order).
        await lockSubjects(trx, [RESET_SUBJECT]);
        const at = now();
        const state = await stateOf(trx, token, at);
        if (state === null || state.state !== 'valid') return state;
        const iso = at.toISOString();
        // The compare-and-set: of two requests with one token, only one changes the row.
        const claimed = await trx
          .updateTable('password_resets')
          .set({ used_at: iso })
          .where('token_hash', '=', hashToken(token))
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (claimed.numUpdatedRows === 0n) return { state: 'used' } as const;
        // Every other open link of the account is spent too: the password they were for is gone.
        await trx
          .updateTable('password_resets')
          .set({ used_at: iso })
          .where('person_id', '=', state.personId)
          .where('used_at', 'is', null)
          .execute();
        const account = await trx
          .selectFrom('accounts')
          .select(['password_changed_at', 'created_at'])
          .where('person_id', '=', state.personId)
          .executeTakeFirstOrThrow();
        // As every password change (account-writes.ts): the epoch moves in the same UPDATE.
        await trx
          .updateTable('accounts')
          .set({
            password_hash: passwordHash,
            password_changed_at: nextUpdatedAt(iso, account.password_changed_at ?? account.created_at),
            session_epoch: sql<number>`session_epoch + 1`,
          })
          .where('person_id', '=', state.personId)
          .execute();
        await trx.deleteFrom('sessions').where('person_id', '=', state.personId).execute();
        return { state: 'done', personId: state.personId } as const;
      });
    },
  };
}
