// Kysely table types of the catalogue (see src/catalogue/migrations/). Timestamps are ISO 8601
// UTC strings with milliseconds (`Date#toISOString()`), identical in both engines (ADR 0003).
import type { ColumnType, Generated } from 'kysely';
import type { ListedTable, SlugKind } from './registry/index.ts';

export interface PersonsTable {
  id: Generated<number>;
  slug: string;
  vorname: string;
  nachname: string;
  image: string | null;
  geboren: number | null;
  gestorben: number | null;
  /** Bytewise-sortable key of (filing surname, vorname); lists page on (sort_key, id). */
  sort_key: string;
  /** Names plus umlaut spelling variants; indexed by FTS5 / the search_vector column. */
  search_text: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Version of the life dates resource (`geboren`, `gestorben`); null: `created_at` (ADR 0026). */
  life_dates_updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 while the person has a live work, else 0; kept by triggers (migration 0013, ADR 0062). */
  public: ColumnType<number, number | undefined, number>;
  /** Another system's id of the person (an import's key, ADR 0064); unique, null: none. */
  external_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WorksTable {
  id: Generated<number>;
  slug: string;
  titel: string;
  jahr: number | null;
  exemplare: number;
  sort_key: string;
  /** Title plus the names of its persons (kept current by the stores). */
  search_text: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Another system's id of the work (an import's key, ADR 0064); unique, null: none. */
  external_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The ISBN as an imported record gave it; null: none. */
  isbn: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PersonWorkTable {
  person_id: number;
  work_id: number;
  /** Order of the persons of one work (first author first). */
  position: number;
  /**
   * The work's sort key while it is live, null once deleted; kept by triggers (migration 0035),
   * never written by the program.
   */
  work_sort_key: Generated<string | null>;
}

export type { SlugKind };

export interface SlugHistoryTable {
  kind: SlugKind;
  slug: string;
  target_id: number;
  created_at: string;
}

export type Role = 'member' | 'staff';

export interface AccountsTable {
  person_id: number;
  username: string;
  password_hash: string;
  role: Role;
  created_at: string;
  /** Moved by every change that ends the account's sessions and Basic credentials (migration 0011, ADR 0063). */
  session_epoch: ColumnType<number, number | undefined, number>;
  /** Set while the account is locked: no log-in, no session, no Basic (staff unlock it). */
  locked_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The password resource's version; null: `created_at`. */
  password_changed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account resource's version; null: `created_at`. */
  updated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The library card number the desk scans (migration 0019, ADR 0082); null: none (tools). */
  card_number: ColumnType<string | null, string | null | undefined, string | null>;
  /** The patron's private e-mail address for notices (migration 0021, ADR 0085); null: none. */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: the patron wants no notices. */
  notices_opt_out: ColumnType<number, number | undefined, number>;
  /** The language of their notices. */
  language: ColumnType<'de' | 'en', 'de' | 'en' | undefined, 'de' | 'en'>;
  /** The settings resource's version; null: `created_at`. */
  settings_updated_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One log-in (migration 0016, ADR 0076): log-out and account removal delete it. */
export interface SessionsTable {
  /** SHA-256 (base64url) of the cookie's random session id. */
  id_hash: string;
  person_id: number;
  created_at: string;
  /** The cookie's expiry; rows past it are pruned. */
  expires_at: string;
}

export interface LoansTable {
  id: Generated<number>;
  person_id: number;
  work_id: number;
  borrowed_at: string;
  due_at: string;
  returned_at: string | null;
  /** The copy lent (migration 0010); null only for rows written by tools that predate copies. */
  copy_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** How often the loan was renewed. */
  renewals: ColumnType<number, number | undefined, number>;
  /** When it was last renewed (migration 0015, ADR 0060); null: never. */
  renewed_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One copy of a work (migration 0010). Status is derived: missing, on loan, held, available. */
export interface CopiesTable {
  id: Generated<number>;
  work_id: number;
  /** 1, 2, … within the work. */
  nummer: number;
  /** Shelfmark, e.g. `Goe 12 Fa`. */
  signatur: string;
  barcode: string;
  standort: string;
  missing_since: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** The copy's item type (migration 0020, ADR 0084); existing copies: `buch`. */
  item_type: ColumnType<string, string | undefined, string>;
}

/** A kind of copy and how it lends (migration 0020, ADR 0084). */
export interface ItemTypesTable {
  code: string;
  name_de: string;
  name_en: string;
  /** 0: not for loan (reference stock). */
  lendable: number;
  /** Null: the default loan period. */
  loan_days: number | null;
  /** Null: the configured SHELFMARK_MAX_RENEWALS. */
  renewals: number | null;
  /** Open loans of this type one member may have; null: only the overall limit. */
  max_loans: number | null;
  updated_at: string;
}

/** A day the library is closed (UTC calendar day, YYYY-MM-DD); nothing falls due on it. */
export interface ClosedDaysTable {
  day: string;
  reason: ColumnType<string, string | undefined, string>;
  created_at: string;
}

export type HoldEndReason = 'cancelled' | 'fulfilled' | 'expired';

/** A member's place in a work's queue (migration 0010); first come (placed_at, id) first served. */
export interface HoldsTable {
  id: Generated<number>;
  person_id: number;
  work_id: number;
  placed_at: string;
  /** The copy kept for this member; null while waiting. */
  copy_id: number | null;
  ready_at: string | null;
  expires_at: string | null;
  ended_at: string | null;
  end_reason: HoldEndReason | null;
}

export type NoticeKind = 'due-soon' | 'overdue-1' | 'overdue-2' | 'hold-ready' | 'password-reset';
export type NoticeState = 'pending' | 'sent' | 'failed' | 'obsolete';

/** One e-mail notice (migration 0021, ADR 0085): planned once, claimed under a lease, sent once. */
export interface NoticesTable {
  id: Generated<number>;
  kind: NoticeKind;
  /** The loan, hold or password reset it is about. */
  subject_id: number;
  /** The due date or ready time it speaks of. */
  occasion: string;
  person_id: number;
  email: string;
  language: 'de' | 'en';
  subject: string;
  body: string;
  state: NoticeState;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  last_error: string | null;
  message_id: string | null;
  created_at: string;
  sent_at: string | null;
  updated_at: string;
}

/** A password reset link (migration 0021, ADR 0086): single use, expires; only the token's hash. */
export interface PasswordResetsTable {
  id: Generated<number>;
  person_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** One row (id 1): changed by every committed write (migration 0003, ADR 0048). */
export interface ChangeCounterTable {
  id: number;
  /** bigint: pg returns it as text, SQLite as a number. */
  n: string | number;
}

/** One failed log-in (docs/decisions/0034): `key_hash` is SHA-256 of the limiter key. */
export interface LoginFailuresTable {
  key_hash: string;
  /** Milliseconds since the epoch; bigint, which pg returns as a string. */
  at: ColumnType<number | string, number, never>;
}

/** Values the servers on one database share, e.g. the generated session secret. */
export interface ServerSettingsTable {
  name: string;
  value: string;
}

/** Live persons and works (migration 0005, ADR 0025) and live public persons (0013), kept by triggers. */
export interface LiveRowCountsTable {
  /** A listed kind's live rows (registry/kinds.ts), and the public persons (migration 0013). */
  name: ListedTable | 'public_persons';
  /** bigint: node:sqlite reads a number, pg a string. */
  n: number | string;
}

/** Per person and decade, the person's live works of that decade (migration 0031, ADR 0102). */
export interface PersonDecadesTable {
  person_id: number;
  /** The first year of the decade, floored (`-5` → `-10`). */
  decade: number;
  /** The person's sort key, so a decade's persons come in list order from one index range. */
  sort_key: string;
  work_count: number;
}

export interface DB {
  persons: PersonsTable;
  works: WorksTable;
  person_work: PersonWorkTable;
  person_decades: PersonDecadesTable;
  slug_history: SlugHistoryTable;
  accounts: AccountsTable;
  loans: LoansTable;
  copies: CopiesTable;
  holds: HoldsTable;
  item_types: ItemTypesTable;
  closed_days: ClosedDaysTable;
  notices: NoticesTable;
  password_resets: PasswordResetsTable;
  change_counter: ChangeCounterTable;
  login_failures: LoginFailuresTable;
  server_settings: ServerSettingsTable;
  live_row_counts: LiveRowCountsTable;
  sessions: SessionsTable;
}
