// The notices as a list (ADR 0092): every notice, or one patron's, newest first, filtered by
// state; keyset-paged on the id (a notice's id grows with its planning time).
import type { Kysely } from 'kysely';
import type { Page, PageRequest, PersonRef } from '../model.ts';
import type { DB, NoticeKind, NoticeState } from '../tables.ts';
import { countedPage } from '../shared/index.ts';

export interface NoticeRow {
  readonly id: number;
  readonly kind: NoticeKind;
  readonly subjectId: number;
  readonly person: PersonRef;
  readonly email: string;
  readonly language: 'de' | 'en';
  readonly subject: string;
  readonly body: string;
  readonly state: NoticeState;
  readonly attempts: number;
  readonly nextAttemptAt: Date;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly sentAt: Date | null;
}

export interface NoticeFilter {
  /** Only this person's notices; absent: everyone's. */
  readonly personId?: number;
  readonly state?: NoticeState;
}

export interface NoticeListStore {
  list(filter: NoticeFilter, request: PageRequest): Promise<Page<NoticeRow>>;
}

export function createNoticeListStore(db: Kysely<DB>): NoticeListStore {
  return {
    async list(filter, request) {
      const rows = () => {
        let query = db
          .selectFrom('notices')
          .innerJoin('persons', 'persons.id', 'notices.person_id')
          .select([
            'notices.id',
            'notices.kind',
            'notices.subject_id',
            'notices.person_id',
            'notices.email',
            'notices.language',
            'notices.subject',
            'notices.body',
            'notices.state',
            'notices.attempts',
            'notices.next_attempt_at',
            'notices.last_error',
            'notices.created_at',
            'notices.sent_at',
            'persons.slug',
            'persons.vorname',
            'persons.nachname',
          ]);
        if (filter.personId !== undefined) query = query.where('notices.person_id', '=', filter.personId);
        if (filter.state !== undefined) query = query.where('notices.state', '=', filter.state);
        return query;
      };
      return countedPage(
        request,
        {
          rows,
          columns: ['notices.id'],
          keyTypes: ['number'],
          keyOf: (r) => [r.id],
          descending: true,
        },
        (r) => ({
          id: r.id,
          kind: r.kind,
          subjectId: r.subject_id,
          person: { id: r.person_id, slug: r.slug, vorname: r.vorname, nachname: r.nachname },
          email: r.email,
          language: r.language,
          subject: r.subject,
          body: r.body,
          state: r.state,
          attempts: Number(r.attempts),
          nextAttemptAt: new Date(r.next_attempt_at),
          lastError: r.last_error,
          createdAt: new Date(r.created_at),
          sentAt: r.sent_at === null ? null : new Date(r.sent_at),
        }),
      );
    },
  };
}
