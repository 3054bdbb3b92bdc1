import type { Role } from '../tables.ts';

/** A refused account change, with a message meant for the person at the command line. */
export class AccountError extends Error {
  override name = 'AccountError';
}

export const ROLES: readonly Role[] = ['member', 'staff'];
