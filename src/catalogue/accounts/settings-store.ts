// A patron's settings (ADR 0093): the private e-mail address notices and password resets go to,
// the language of those mails, and the opt-out from notices. The columns are the account's
// (migration 0021, ADR 0085); `settings_updated_at` is the resource's own version, so a change
// here does not move the account's (role, lock) nor its session epoch.
import type { Kysely } from 'kysely';
import { lockSubjects, subject } from '../changes.ts';
import {
  ChangedMeanwhileError,
  expectedText,
  nextUpdatedAt,
  type WriteExpectation,
} from '../shared/index.ts';
import type { DB } from '../tables.ts';

export type NoticeLanguage = 'de' | 'en';
export const NOTICE_LANGUAGES: readonly NoticeLanguage[] = ['de', 'en'];

export interface Settings {
  readonly email: string | null;
  readonly language: NoticeLanguage;
  /** True: the patron gets no notices (a password reset mail still comes: they asked for it). */
  readonly optOut: boolean;
  /** The resource's version. */
  readonly updatedAt: Date;
}

export type SettingsChange = Omit<Settings, 'updatedAt'>;

export interface SettingsStore {
  /** The settings of a live person's account; null: no account. */
  read(personId: number): Promise<Settings | null>;
  /** Null: no account. ChangedMeanwhileError when `expect` names a version that is gone. */
  write(personId: number, change: SettingsChange, expect?: WriteExpectation): Promise<Settings | null>;
}

function selectSettings(db: Kysely<DB>, personId: number) {
  return db
    .selectFrom('accounts')
    .innerJoin('persons', 'persons.id', 'accounts.person_id')
    .where('persons.deleted_at', 'is', null)
    .where('accounts.person_id', '=', personId)
    .select([
      'accounts.email',
      'accounts.language',
      'accounts.notices_opt_out',
      'accounts.settings_updated_at',
      'accounts.created_at',
    ]);
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof selectSettings>['executeTakeFirst']>>>;

const settingsOf = (row: Row): Settings => ({
  email: row.email,
  language: row.language,
  optOut: Number(row.notices_opt_out) === 1,
  updatedAt: new Date(row.settings_updated_at ?? row.created_at),
});

export function createSettingsStore(db: Kysely<DB>, now: () => string): SettingsStore {
  return {
    async read(personId) {
      if (!Number.isSafeInteger(personId)) return null;
      const row = await selectSettings(db, personId).executeTakeFirst();
      return row ? settingsOf(row) : null;
    },
    async write(personId, change, expect) {
      return db.transaction().execute(async (trx) => {
        await lockSubjects(trx, [subject.person(personId)]);
        const row = await selectSettings(trx, personId).executeTakeFirst();
        if (!row) return null;
        const current = settingsOf(row);
        const expected = expectedText(expect);
        if (expected !== undefined && current.updatedAt.toISOString() !== expected)
          throw new ChangedMeanwhileError(`the settings of person ${personId}`);
        const at = nextUpdatedAt(now(), current.updatedAt.toISOString());
        await trx
          .updateTable('accounts')
          .set({
            email: change.email,
            language: change.language,
            notices_opt_out: change.optOut ? 1 : 0,
            settings_updated_at: at,
          })
          .where('person_id', '=', personId)
          .execute();
        return { ...change, updatedAt: new Date(at) };
      });
    },
  };
}
