// The account row as the stores read it: only accounts of live persons.
import type { Kysely } from 'kysely';
import { param, prepare } from '../../storage/index.ts';
import type { DB, Role } from '../tables.ts';

export interface Account {
  /** The person's id. */
  readonly id: number;
  readonly username: string;
  readonly role: Role;
  readonly passwordHash: string;
  /** The session epoch: sessions issued under another one are over (ADR 0063). */
  readonly epoch: number;
  readonly locked: boolean;
}

/** What the account resources show, with their versions. */
export interface AccountDetails extends Account {
  readonly createdAt: Date;
  /** The account resource's version (role, lock, …). */
  readonly updatedAt: Date;
  /** The password resource's version. */
  readonly passwordChangedAt: Date;
  readonly lockedAt: Date | null;
  /** The library card number (ADR 0082); null for accounts written by tools without one. */
  readonly cardNumber: string | null;
}

/** The columns an Account is made of (accountOf), as every account read selects them. */
export const ACCOUNT_COLUMNS = [
  'accounts.person_id as id',
  'accounts.username',
  'accounts.role',
  'accounts.password_hash as passwordHash',
  'accounts.session_epoch as epoch',
  'accounts.locked_at',
] as const;

/** The accounts of live persons, no columns chosen yet. */
export function liveAccountRows(db: Kysely<DB>) {
  return db
    .selectFrom('accounts')
    .innerJoin('persons', 'persons.id', 'accounts.person_id')
    .where('persons.deleted_at', 'is', null);
}

export function liveAccounts(db: Kysely<DB>) {
  return liveAccountRows(db).select([
    ...ACCOUNT_COLUMNS,
    'accounts.created_at',
    'accounts.updated_at',
    'accounts.password_changed_at',
    'accounts.card_number',
  ]);
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof liveAccounts>['executeTakeFirst']>>>;

/**
 * One live account by its person's id (a session's user, every request that carries one) or by
 * its normalised user name (HTTP Basic, log-in): prepared, so PostgreSQL plans it once per
 * connection (ADR 0047, 0068).
 */
export const ACCOUNT_BY_ID = prepare<{ id: number }, Row, DB>((db: Kysely<DB>) =>
  liveAccounts(db).where('accounts.person_id', '=', param<number>('id')),
);
export const ACCOUNT_BY_USERNAME = prepare<{ username: string }, Row, DB>((db: Kysely<DB>) =>
  liveAccounts(db).where('accounts.username', '=', param<string>('username')),
);

/** The columns an Account is made of (the log-in reader brings only these). */
export type AccountFields = Pick<Row, 'id' | 'username' | 'role' | 'passwordHash' | 'epoch' | 'locked_at'>;

export function accountOf(row: AccountFields): Account {
  const { id, username, role, passwordHash } = row;
  return { id, username, role, passwordHash, epoch: Number(row.epoch), locked: row.locked_at !== null };
}

export function detailsOf(row: Row): AccountDetails {
  const created = new Date(row.created_at);
  return {
    ...accountOf(row),
    createdAt: created,
    updatedAt: row.updated_at === null ? created : new Date(row.updated_at),
    passwordChangedAt: row.password_changed_at === null ? created : new Date(row.password_changed_at),
    lockedAt: row.locked_at === null ? null : new Date(row.locked_at),
    cardNumber: row.card_number,
  };
}
