// Options shared by the catalogue's SQL stores.
import type { Kysely } from 'kysely';
import { detectCapabilities, type Capabilities } from '../storage/index.ts';
import type { DB } from './tables.ts';

export interface StoreOptions {
  /** Engine capabilities; detected from the Kysely instance when absent. */
  readonly capabilities?: Capabilities;
  /** Clock for timestamps (tests pin it). */
  readonly now?: () => Date;
  /** Hard upper bound on a page, whatever the caller asks (default 100). */
  readonly maxPageSize?: number;
  /** Days a returned copy is kept for the first hold in the queue (default 7, ADR 0059). */
  readonly holdDays?: number;
  /** How often a loan may be renewed (default 2, ADR 0060). */
  readonly maxRenewals?: number;
  /** Loans: a loan overdue by more than this many days blocks borrowing (default 14; ADR 0061). */
  readonly overdueBlockDays?: number;
  /** Loans: open loans one member may have in all; 0: no limit (default 20; ADR 0084). */
  readonly loanLimit?: number;
}

export interface ResolvedStoreOptions {
  readonly capabilities: Capabilities;
  readonly now: () => string;
  readonly maxPageSize: number;
}

export function resolveOptions(db: Kysely<DB>, options: StoreOptions = {}): ResolvedStoreOptions {
  const clock = options.now ?? (() => new Date());
  return {
    capabilities: options.capabilities ?? detectCapabilities(db),
    now: () => clock().toISOString(),
    maxPageSize: options.maxPageSize ?? 100,
  };
}
