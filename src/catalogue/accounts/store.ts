// Accounts: a person's user name, password hash and role (docs/urls.md, docs/access.md). The account's id is
// its person's id, so `/ausleihen/{user_id}` and the session cookie's user id are the same
// number. User names are case-insensitive (stored lower-case). A person that was deleted has
// no usable account: the lookups skip it, so its sessions and Basic credentials stop working.
// A locked account is found (staff see it, the CLI changes it) but carries `locked`, and the
// layer's authenticator refuses it (ADR 0063). The writes that must end sessions move the
// account's `epoch` (account-writes.ts); the CLI and the HTTP resources share them.
import type { Kysely } from 'kysely';
import { normaliseUsername } from '../../http/auth/username.ts';
import { ConflictError, ForeignKeyError } from '../../storage/index.ts';
import { lockSubjects, STAFF_SUBJECT, subject } from '../changes.ts';
import { touchRows } from '../shared/index.ts';
import type { DB, Role } from '../tables.ts';
import { accountWrites, type AccountWrites } from './account-writes.ts';
import {
  ACCOUNT_BY_ID,
  ACCOUNT_BY_USERNAME,
  accountOf,
  detailsOf,
  type Account,
  type AccountDetails,
} from './rows.ts';
import { AccountError, ROLES } from './errors.ts';
import { refuseLastStaff } from './last-staff.ts';
import { defaultCardNumber } from './card-number.ts';

export interface NewAccount {
  readonly personId: number;
  readonly username: string;
  readonly passwordHash: string;
  readonly role?: Role;
  readonly locked?: boolean;
}

export interface AccountStore extends AccountWrites {
  findByUsername(username: string): Promise<Account | null>;
  findById(id: number): Promise<Account | null>;
  /** The account of a live person, with its versions; null when it has none. */
  details(personId: number): Promise<AccountDetails | null>;
  /** AccountError when the name is invalid or taken, the person missing or already has one. */
  add(account: NewAccount): Promise<Account>;
  remove(username: string): Promise<boolean>;
  removeById(personId: number): Promise<boolean>;
}

export { AccountError, ROLES };
export type { Account, AccountDetails };
const USERNAME = /^[a-z0-9][a-z0-9._-]{0,39}$/;

// The layer's normal form (NFKC, no ignorables, trimmed, lower case): one for the account
// lookup and the log-in limiter alike (docs/decisions/0034).
export { normaliseUsername };

export function isValidUsername(username: string): boolean {
  return USERNAME.test(username);
}

/** Why an insert was refused, for the person at the command line or the form. */
async function refusal(
  db: Kysely<DB>,
  name: string,
  personId: number,
  error: unknown,
): Promise<AccountError> {
  const taken = await db
    .selectFrom('accounts')
    .select('username')
    .where((eb) => eb.or([eb('username', '=', name), eb('person_id', '=', personId)]))
    .executeTakeFirst();
  return new AccountError(
    taken?.username === name
      ? `the user name "${name}" is taken`
      : `that person already has an account ("${taken?.username ?? '?'}")`,
    { cause: error },
  );
}

export function createAccountStore(
  db: Kysely<DB>,
  now: () => string = () => new Date().toISOString(),
): AccountStore {
  async function removeWhere(column: 'username' | 'person_id', value: string | number): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const account = () =>
        trx.selectFrom('accounts').select('person_id').where(column, '=', value).executeTakeFirst();
      const seen = await account();
      if (!seen) return false;
      // The person's subject (ADR 0088), then the account again under it.
      await lockSubjects(trx, [STAFF_SUBJECT, subject.person(seen.person_id)]);
      const found = await account();
      if (!found) return false;
      await refuseLastStaff(trx, found.person_id);
      // Its sessions go with it (the foreign key's cascade, ADR 0076): a new account of the
      // person can never be reached with an old cookie.
      const removed = await trx
        .deleteFrom('accounts')
        .where('person_id', '=', found.person_id)
        .returning('person_id')
        .executeTakeFirst();
      if (!removed) return false;
      // The person no longer shows a username: a new version of it (ADR 0024).
      await touchRows(trx, 'persons', [removed.person_id], now());
      return true;
    });
  }

  return {
    ...accountWrites(db, now),

    async findByUsername(username) {
      const name = normaliseUsername(username);
      if (!isValidUsername(name)) return null;
      const row = await ACCOUNT_BY_USERNAME.executeTakeFirst(db, { username: name });
      return row ? accountOf(row) : null;
    },

    async findById(id) {
      if (!Number.isSafeInteger(id)) return null;
      const row = await ACCOUNT_BY_ID.executeTakeFirst(db, { id });
      return row ? accountOf(row) : null;
    },

    async details(personId) {
      if (!Number.isSafeInteger(personId)) return null;
      const row = await ACCOUNT_BY_ID.executeTakeFirst(db, { id: personId });
      return row ? detailsOf(row) : null;
    },

    async add({ personId, username, passwordHash, role = 'member', locked = false }) {
      const name = normaliseUsername(username);
      if (!isValidUsername(name))
        throw new AccountError(
          `"${username}" is not a valid user name (1–40 of a–z, 0–9, ".", "_", "-"; starting with a letter or digit)`,
        );
      if (!ROLES.includes(role)) throw new AccountError(`unknown role "${String(role)}"`);
      const at = now();
      try {
        await db.transaction().execute(async (trx) => {
          await lockSubjects(trx, [subject.person(personId)]);
          const person = await trx
            .selectFrom('persons')
            .select('id')
            .where('id', '=', personId)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          if (!person) throw new AccountError(`there is no person with id ${personId}`);
          await trx
            .insertInto('accounts')
            .values({
              person_id: personId,
              username: name,
              password_hash: passwordHash,
              role,
              created_at: at,
              locked_at: locked ? at : null,
              card_number: defaultCardNumber(personId),
            })
            .execute();
          // The person shows its username: a new version of it (ADR 0024).
          await touchRows(trx, 'persons', [personId], at);
        });
      } catch (error) {
        if (error instanceof ConflictError || error instanceof ForeignKeyError)
          throw await refusal(db, name, personId, error);
        throw error;
      }
      return { id: personId, username: name, role, passwordHash, epoch: 0, locked };
    },

    remove: (username) => removeWhere('username', normaliseUsername(username)),
    removeById: (personId) =>
      Number.isSafeInteger(personId) ? removeWhere('person_id', personId) : Promise.resolve(false),
  };
}
