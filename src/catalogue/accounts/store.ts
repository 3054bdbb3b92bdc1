// Accounts: a person's user name, password hash and role (docs/urls.md, docs/access.md). The account's id is
// its person's id, so `/ausleihen/{user_id}` and the session cookie's user id are the same
// number. User names are case-insensitive (stored lower-case). A person that was deleted has
// no usable account: the lookups skip it, so its sessions and Basic credentials stop working.
import type { Kysely } from 'kysely';
import { normaliseUsername } from '../../http/auth/username.ts';
import { ConflictError, ForeignKeyError } from '../../storage/index.ts';
import { touchRows } from '../shared/versions.ts';
import type { DB, Role } from '../tables.ts';

export interface Account {
  /** The person's id. */
  readonly id: number;
  readonly username: string;
  readonly role: Role;
  readonly passwordHash: string;
}

export interface NewAccount {
  readonly personId: number;
  readonly username: string;
  readonly passwordHash: string;
  readonly role?: Role;
}

export interface AccountStore {
  findByUsername(username: string): Promise<Account | null>;
  findById(id: number): Promise<Account | null>;
  /** AccountError when the name is invalid or taken, the person missing or already has one. */
  add(account: NewAccount): Promise<Account>;
  /** False when there is no such account. */
  setPassword(username: string, passwordHash: string): Promise<boolean>;
  setRole(username: string, role: Role): Promise<boolean>;
  remove(username: string): Promise<boolean>;
}

/** A refused account change, with a message meant for the person at the command line. */
export class AccountError extends Error {
  override name = 'AccountError';
}

export const ROLES: readonly Role[] = ['member', 'staff'];
const USERNAME = /^[a-z0-9][a-z0-9._-]{0,39}$/;

// The layer's normal form (NFKC, no ignorables, trimmed, lower case): one for the account
// lookup and the log-in limiter alike (docs/decisions/0034).
export { normaliseUsername };

export function isValidUsername(username: string): boolean {
  return USERNAME.test(username);
}

export function createAccountStore(db: Kysely<DB>): AccountStore {
  const live = () =>
    db
      .selectFrom('accounts')
      .innerJoin('persons', 'persons.id', 'accounts.person_id')
      .where('persons.deleted_at', 'is', null)
      .select([
        'accounts.person_id as id',
        'accounts.username',
        'accounts.role',
        'accounts.password_hash as passwordHash',
      ]);

  return {
    async findByUsername(username) {
      const name = normaliseUsername(username);
      if (!isValidUsername(name)) return null;
      return (await live().where('accounts.username', '=', name).executeTakeFirst()) ?? null;
    },

    async findById(id) {
      if (!Number.isSafeInteger(id)) return null;
      return (await live().where('accounts.person_id', '=', id).executeTakeFirst()) ?? null;
    },

    async add({ personId, username, passwordHash, role = 'member' }) {
      const name = normaliseUsername(username);
      if (!isValidUsername(name))
        throw new AccountError(
          `"${username}" is not a valid user name (1–40 of a–z, 0–9, ".", "_", "-"; starting with a letter or digit)`,
        );
      if (!ROLES.includes(role)) throw new AccountError(`unknown role "${String(role)}"`);
      const person = await db
        .selectFrom('persons')
        .select('id')
        .where('id', '=', personId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!person) throw new AccountError(`there is no person with id ${personId}`);
      try {
        await db
          .insertInto('accounts')
          .values({
            person_id: personId,
            username: name,
            password_hash: passwordHash,
            role,
            created_at: new Date().toISOString(),
          })
          .execute();
      } catch (error) {
        if (error instanceof ConflictError || error instanceof ForeignKeyError) {
          const taken = await db
            .selectFrom('accounts')
            .select('username')
            .where((eb) => eb.or([eb('username', '=', name), eb('person_id', '=', personId)]))
            .executeTakeFirst();
          throw new AccountError(
            taken?.username === name
              ? `the user name "${name}" is taken`
              : `that person already has an account ("${taken?.username ?? '?'}")`,
            { cause: error },
          );
        }
        throw error;
      }
      // The person shows its username: a new version of it (ADR 0024).
      await touchRows(db, 'persons', [personId], new Date().toISOString());
      return { id: personId, username: name, role, passwordHash };
    },

    async setPassword(username, passwordHash) {
      const result = await db
        .updateTable('accounts')
        .set({ password_hash: passwordHash })
        .where('username', '=', normaliseUsername(username))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setRole(username, role) {
      if (!ROLES.includes(role)) throw new AccountError(`unknown role "${String(role)}"`);
      const result = await db
        .updateTable('accounts')
        .set({ role })
        .where('username', '=', normaliseUsername(username))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async remove(username) {
      const removed = await db
        .deleteFrom('accounts')
        .where('username', '=', normaliseUsername(username))
        .returning('person_id')
        .executeTakeFirst();
      if (!removed) return false;
      // The person no longer shows a username: a new version of it (ADR 0024).
      await touchRows(db, 'persons', [removed.person_id], new Date().toISOString());
      return true;
    },
  };
}
