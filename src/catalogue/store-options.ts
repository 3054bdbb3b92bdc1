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
