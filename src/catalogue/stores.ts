// Builds the catalogue's stores over one database.
import type { Kysely } from 'kysely';
import type { DB } from './tables.ts';
import { createPersonStore, type SqlPersonStore } from './persons/index.ts';
import { createWorkStore, type SqlWorkStore } from './works/index.ts';
import { createLoanStore, createRenewalStore, type RenewalStore } from './loans/index.ts';
import type { LoanStore } from './loans/index.ts';
import { createHoldStore } from './holds/index.ts';
import type { HoldStore } from './holds/index.ts';
import type { StoreOptions } from './store-options.ts';
import { createCheckInStore, type CheckInStore } from './check-in/index.ts';
import { createLifeDatesStore, type LifeDatesStore } from './life-dates/index.ts';
import { sqlSitemapSource, type SitemapSource } from './sitemap/index.ts';
import { createAccountStore, type AccountStore, sessionRecords } from './accounts/index.ts';
import { sqlFeedSource, type FeedSource } from './feeds/index.ts';
import { createCopyStore, type CopyStore } from './copies/index.ts';
import type { SessionRecords } from '../http/auth/index.ts';
import { sqlRecordSource, type RecordSource } from './oai/index.ts';
import { createDeskStore, type DeskStore } from './desk/index.ts';
import { createStaffListStore, type StaffListStore } from './staff-lists/index.ts';
import { createNoticeListStore, type NoticeListStore } from './notices/index.ts';
import { createSettingsStore, type SettingsStore } from './accounts/index.ts';
import { createPasswordResetStore, type PasswordResetStore } from './password-reset/index.ts';
import { createRulesEditingStore, type RulesEditingStore } from './rules/index.ts';

export interface CatalogueStores {
  readonly persons: SqlPersonStore;
  readonly works: SqlWorkStore;
  readonly loans: LoanStore;
  readonly holds: HoldStore;
  readonly renewals: RenewalStore;
  readonly lifeDates: LifeDatesStore;
  readonly copies: CopyStore;
  readonly sitemap: SitemapSource;
  readonly feeds: FeedSource;
  readonly accounts: AccountStore;
  readonly settings: SettingsStore;
  readonly passwordResets: PasswordResetStore;
  /** Staff's edits of item types and closed days (ADR 0093). */
  readonly rules: RulesEditingStore;
  readonly checkIns: CheckInStore;
  /** Log-ins, for the layer's authenticator: log-out ends one everywhere (ADR 0076). */
  readonly sessions: SessionRecords;
  readonly oai: RecordSource;
  readonly desk: DeskStore;
  /** The staff lists: patrons, hold shelf, overdue loans (ADR 0092). */
  readonly staffLists: StaffListStore;
  /** The notices as lists (ADR 0092). */
  readonly noticeList: NoticeListStore;
}

/** `db` from openDatabase<DB>(…).db; pass `{ capabilities }` from the same handle to skip detection. */
export function createStores(db: Kysely<DB>, options?: StoreOptions): CatalogueStores {
  const isoNow = options?.now && (() => (options.now as () => Date)().toISOString());
  return {
    persons: createPersonStore(db, options),
    works: createWorkStore(db, options),
    loans: createLoanStore(db, {
      capabilities: options?.capabilities,
      now: options?.now,
      overdueBlockDays: options?.overdueBlockDays,
      ...(options?.loanLimit !== undefined && { loanLimit: options.loanLimit }),
      ...(options?.holdDays !== undefined && { holdDays: options.holdDays }),
    }),
    holds: createHoldStore(db, {
      capabilities: options?.capabilities,
      now: options?.now,
      ...(options?.holdDays !== undefined && { holdDays: options.holdDays }),
    }),
    renewals: createRenewalStore(db, {
      capabilities: options?.capabilities,
      now: options?.now,
      ...(options?.holdDays !== undefined && { holdDays: options.holdDays }),
      ...(options?.maxRenewals !== undefined && { maxRenewals: options.maxRenewals }),
    }),
    checkIns: createCheckInStore(db),
    desk: createDeskStore(db),
    staffLists: createStaffListStore(db),
    noticeList: createNoticeListStore(db),
    lifeDates: createLifeDatesStore(db, options),
    copies: createCopyStore(db, options),
    sitemap: sqlSitemapSource(db),
    feeds: sqlFeedSource(db),
    oai: sqlRecordSource(db),
    accounts: createAccountStore(db, isoNow),
    settings: createSettingsStore(db, isoNow ?? (() => new Date().toISOString())),
    passwordResets: createPasswordResetStore(db, options?.now ?? (() => new Date())),
    rules: createRulesEditingStore(db, isoNow ?? (() => new Date().toISOString())),
    sessions: sessionRecords(db, isoNow ?? (() => new Date().toISOString())),
  };
}

export type { StoreOptions } from './store-options.ts';
export type { PersonInput, SqlPersonStore } from './persons/index.ts';
export type { WorkInput, SqlWorkStore } from './works/index.ts';
