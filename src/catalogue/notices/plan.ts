// Planning notices (ADR 0085): every loan or hold that calls for a notice now gets its row,
// inserted with ON CONFLICT DO NOTHING on (kind, subject_id, occasion), so any number of
// processes may plan at once and each notice exists once. Only patrons with an e-mail address
// who have not opted out are written to. A second reminder follows only a sent first one.
import type { Kysely } from 'kysely';
import { holdsPath } from '../holds/index.ts';
import { loansPath } from '../loans/index.ts';
import type { DB, NoticeKind } from '../tables.ts';
import { noticeText, type NoticeFacts } from './texts.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface NoticeRules {
  /** A "due soon" notice this many days before the due date (0: none). */
  readonly dueSoonDays: number;
  /** The first reminder this many days after the due date. */
  readonly firstReminderDays: number;
  /** The second reminder this many days after the due date (0: none). */
  readonly secondReminderDays: number;
}

export const DEFAULT_NOTICE_RULES: NoticeRules = {
  dueSoonDays: 3,
  firstReminderDays: 1,
  secondReminderDays: 14,
};

interface Candidate {
  readonly kind: Exclude<NoticeKind, 'password-reset'>;
  readonly subjectId: number;
  readonly occasion: string;
  readonly personId: number;
  readonly email: string;
  readonly language: 'de' | 'en';
  readonly facts: NoticeFacts;
}

/** Open loans of patrons who get notices and have no `kind` notice for this due date yet. */
function openLoans(db: Kysely<DB>, kind: Candidate['kind']) {
  return db
    .selectFrom('loans')
    .innerJoin('accounts', 'accounts.person_id', 'loans.person_id')
    .innerJoin('persons', 'persons.id', 'loans.person_id')
    .innerJoin('works', 'works.id', 'loans.work_id')
    .select([
      'loans.id',
      'loans.due_at',
      'loans.person_id',
      'accounts.email',
      'accounts.language',
      'persons.vorname',
      'persons.nachname',
      'works.titel',
    ])
    .where('loans.returned_at', 'is', null)
    .where('accounts.email', 'is not', null)
    .where('accounts.notices_opt_out', '=', 0)
    .where('persons.deleted_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notices')
            .select('notices.id')
            .where('notices.kind', '=', kind)
            .whereRef('notices.subject_id', '=', 'loans.id')
            .whereRef('notices.occasion', '=', 'loans.due_at'),
        ),
      ),
    );
}

const nameOf = (r: { vorname: string; nachname: string }) => `${r.vorname} ${r.nachname}`.trim();

/** Inserts the notices due at `now`; returns how many were new. */
export async function planNotices(
  db: Kysely<DB>,
  now: Date,
  rules: NoticeRules,
  absolute: (path: string) => string,
): Promise<number> {
  const at = now.toISOString();
  const candidates: Candidate[] = [];
  const loan = (
    kind: Candidate['kind'],
    r: Awaited<ReturnType<ReturnType<typeof openLoans>['execute']>>[number],
  ) =>
    candidates.push({
      kind,
      subjectId: r.id,
      occasion: r.due_at,
      personId: r.person_id,
      email: r.email!,
      language: r.language,
      facts: {
        name: nameOf(r),
        titel: r.titel,
        date: new Date(r.due_at),
        url: absolute(loansPath(r.person_id)),
      },
    });

  if (rules.dueSoonDays > 0) {
    const until = new Date(now.getTime() + rules.dueSoonDays * DAY_MS).toISOString();
    for (const r of await openLoans(db, 'due-soon')
      .where('loans.due_at', '>', at)
      .where('loans.due_at', '<=', until)
      .execute())
      loan('due-soon', r);
  }
  const firstBefore = new Date(now.getTime() - rules.firstReminderDays * DAY_MS).toISOString();
  for (const r of await openLoans(db, 'overdue-1').where('loans.due_at', '<=', firstBefore).execute())
    loan('overdue-1', r);
  if (rules.secondReminderDays > 0) {
    const secondBefore = new Date(now.getTime() - rules.secondReminderDays * DAY_MS).toISOString();
    const rows = await openLoans(db, 'overdue-2')
      .where('loans.due_at', '<=', secondBefore)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('notices')
            .select('notices.id')
            .whereRef('notices.subject_id', '=', 'loans.id')
            .whereRef('notices.occasion', '=', 'loans.due_at')
            .where('notices.kind', '=', 'overdue-1')
            .where('notices.state', '=', 'sent'),
        ),
      )
      .execute();
    for (const r of rows) loan('overdue-2', r);
  }

  const ready = await db
    .selectFrom('holds')
    .innerJoin('accounts', 'accounts.person_id', 'holds.person_id')
    .innerJoin('persons', 'persons.id', 'holds.person_id')
    .innerJoin('works', 'works.id', 'holds.work_id')
    .select([
      'holds.id',
      'holds.ready_at',
      'holds.expires_at',
      'holds.person_id',
      'accounts.email',
      'accounts.language',
      'persons.vorname',
      'persons.nachname',
      'persons.slug',
      'works.titel',
    ])
    .where('holds.ended_at', 'is', null)
    .where('holds.copy_id', 'is not', null)
    .where('holds.ready_at', 'is not', null)
    .where('holds.expires_at', '>', at)
    .where('accounts.email', 'is not', null)
    .where('accounts.notices_opt_out', '=', 0)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notices')
            .select('notices.id')
            .where('notices.kind', '=', 'hold-ready')
            .whereRef('notices.subject_id', '=', 'holds.id')
            .whereRef('notices.occasion', '=', 'holds.ready_at'),
        ),
      ),
    )
    .execute();
  for (const r of ready)
    candidates.push({
      kind: 'hold-ready',
      subjectId: r.id,
      occasion: r.ready_at!,
      personId: r.person_id,
      email: r.email!,
      language: r.language,
      facts: {
        name: nameOf(r),
        titel: r.titel,
        date: new Date(r.expires_at!),
        url: absolute(holdsPath(r.slug)),
      },
    });

  let added = 0;
  for (const c of candidates) {
    const text = noticeText(c.kind, c.language, c.facts);
    const inserted = await db
      .insertInto('notices')
      .values({
        kind: c.kind,
        subject_id: c.subjectId,
        occasion: c.occasion,
        person_id: c.personId,
        email: c.email,
        language: c.language,
        subject: text.subject,
        body: text.body,
        state: 'pending',
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['kind', 'subject_id', 'occasion']).doNothing())
      .executeTakeFirst();
    added += Number(inserted.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}
