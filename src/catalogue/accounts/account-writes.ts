// The account changes that must end the account's sessions and remembered Basic credentials:
// each moves the session epoch in the same UPDATE that makes the change (ADR 0063). A password
// change or reset, a lock or unlock, a role change. The CLI (`shelfmark user passwd|role|lock`)
// and the HTTP resources (`/personen/{slug}/konto[/passwort]`) call the same functions, so no
// path can change a password and forget the epoch. Each runs in one transaction that takes the
// change counter first (ADR 0055) and compares-and-sets on the version the caller checked.
import { sql, type Kysely } from 'kysely';
import { normaliseUsername } from '../../http/auth/username.ts';
import { lockSubjects, STAFF_SUBJECT, subject } from '../changes.ts';
import {
  ChangedMeanwhileError,
  expectedText,
  nextUpdatedAt,
  type WriteExpectation,
} from '../shared/index.ts';
import type { DB, Role } from '../tables.ts';
import { AccountError, ROLES } from './errors.ts';
import { refuseLastStaff } from './last-staff.ts';
import { detailsOf, liveAccounts, type AccountDetails } from './rows.ts';

/** What staff change on the account resource. */
export interface AccountChange {
  readonly role: Role;
  readonly locked: boolean;
}

export interface AccountWrites {
  /** A new password hash (reset or change); null when there is no such account. */
  changePassword(
    personId: number,
    passwordHash: string,
    expect?: WriteExpectation,
  ): Promise<AccountDetails | null>;
  /** Role and lock; the epoch moves only when one of them changes. Null: no such account. */
  update(personId: number, change: AccountChange, expect?: WriteExpectation): Promise<AccountDetails | null>;
  /** By user name, for the CLI; false when there is no such account. */
  setPassword(username: string, passwordHash: string): Promise<boolean>;
  setRole(username: string, role: Role): Promise<boolean>;
  setLocked(username: string, locked: boolean): Promise<boolean>;
}

type Key = { readonly personId: number } | { readonly username: string };
type Version = 'updatedAt' | 'passwordChangedAt';

async function personOfUsername(trx: Kysely<DB>, username: string): Promise<number | undefined> {
  const row = await trx
    .selectFrom('accounts')
    .select('person_id')
    .where('username', '=', normaliseUsername(username))
    .executeTakeFirst();
  return row?.person_id;
}

export function accountWrites(db: Kysely<DB>, now: () => string): AccountWrites {
  /**
   * Reads the account under the counter's lock, lets `plan` decide the new values (null: nothing
   * to change), and writes them with the next epoch — unless the version `expect` names is gone.
   */
  async function change(
    key: Key,
    version: Version,
    expect: WriteExpectation | undefined,
    plan: (current: AccountDetails, at: string) => Record<string, string | null> | null,
  ): Promise<AccountDetails | null> {
    return db.transaction().execute(async (trx) => {
      // The person's subject first (ADR 0088); a user name is resolved to its person for that.
      const personId = 'personId' in key ? key.personId : await personOfUsername(trx, key.username);
      if (personId !== undefined) await lockSubjects(trx, [STAFF_SUBJECT, subject.person(personId)]);
      const query = liveAccounts(trx);
      const row = await (
        'personId' in key
          ? query.where('accounts.person_id', '=', key.personId)
          : query.where('accounts.username', '=', normaliseUsername(key.username))
      ).executeTakeFirst();
      if (!row) return null;
      const current = detailsOf(row);
      const expected = expectedText(expect);
      if (expected !== undefined && current[version].toISOString() !== expected)
        throw new ChangedMeanwhileError(`the account of person ${current.id}`);
      const set = plan(current, now());
      if (set === null) return current;
      // A demotion or a lock must leave a staff account (ADR 0077).
      const staffAfter = (set.role ?? current.role) === 'staff';
      const lockedAfter = 'locked_at' in set ? set.locked_at !== null : current.locked;
      if (current.role === 'staff' && !current.locked && (!staffAfter || lockedAfter))
        await refuseLastStaff(trx, current.id);
      const written = await trx
        .updateTable('accounts')
        .set({ ...set, session_epoch: sql<number>`session_epoch + 1` })
        .where('person_id', '=', current.id)
        .where('session_epoch', '=', current.epoch)
        .executeTakeFirst();
      if (written.numUpdatedRows === 0n)
        throw new ChangedMeanwhileError(`the account of person ${current.id}`);
      const after = await liveAccounts(trx)
        .where('accounts.person_id', '=', current.id)
        .executeTakeFirstOrThrow();
      return detailsOf(after);
    });
  }

  const password = (hash: string) => (current: AccountDetails, at: string) => ({
    password_hash: hash,
    password_changed_at: nextUpdatedAt(at, current.passwordChangedAt.toISOString()),
  });

  const roleAndLock = (next: Partial<AccountChange>) => (current: AccountDetails, at: string) => {
    const role = next.role ?? current.role;
    const locked = next.locked ?? current.locked;
    if (!ROLES.includes(role)) throw new AccountError(`unknown role "${String(role)}"`);
    if (role === current.role && locked === current.locked) return null;
    return {
      role,
      locked_at: locked ? (current.lockedAt?.toISOString() ?? at) : null,
      updated_at: nextUpdatedAt(at, current.updatedAt.toISOString()),
    };
  };

  return {
    changePassword: (personId, hash, expect) =>
      change({ personId }, 'passwordChangedAt', expect, password(hash)),
    update: (personId, next, expect) => change({ personId }, 'updatedAt', expect, roleAndLock(next)),
    setPassword: async (username, hash) =>
      (await change({ username }, 'passwordChangedAt', undefined, password(hash))) !== null,
    async setRole(username, role) {
      if (!ROLES.includes(role)) throw new AccountError(`unknown role "${String(role)}"`);
      return (await change({ username }, 'updatedAt', undefined, roleAndLock({ role }))) !== null;
    },
    setLocked: async (username, locked) =>
      (await change({ username }, 'updatedAt', undefined, roleAndLock({ locked }))) !== null,
  };
}
