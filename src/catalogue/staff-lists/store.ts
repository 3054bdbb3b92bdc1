// What the staff lists read (ADR 0092): the patrons (persons with an account: the library's
// users, never an author without one), the hold shelf (copies kept for a hold that has not
// ended) and the overdue loans. Each is one keyset-paged query with its count.
import { sql, type Kysely } from 'kysely';
import type { Page, PageRequest, PersonRef } from '../model.ts';
import type { DB, Role } from '../tables.ts';
import { likeLiteral } from '../desk/index.ts';
import { countedPage } from '../shared/index.ts';

const DAY_MS = 86_400_000;

export interface PatronRow extends PersonRef {
  readonly cardNumber: string | null;
  readonly role: Role;
  readonly locked: boolean;
  readonly openLoans: number;
}

export interface ShelfRow {
  readonly holdId: number;
  readonly person: PersonRef;
  readonly werk: { readonly slug: string; readonly titel: string };
  readonly copy: { readonly nummer: number; readonly barcode: string; readonly signatur: string };
  readonly readyAt: Date;
  readonly expiresAt: Date;
}

export interface OverdueRow {
  readonly loanId: number;
  readonly person: PersonRef;
  readonly cardNumber: string | null;
  readonly werk: { readonly slug: string; readonly titel: string };
  readonly copy: { readonly nummer: number; readonly barcode: string; readonly signatur: string } | null;
  readonly borrowedAt: Date;
  readonly dueAt: Date;
}

export interface StaffListStore {
  /** Persons with an account, by name; `q`: name or card number contains it. */
  patrons(request: PageRequest): Promise<Page<PatronRow>>;
  /** Copies kept for an open hold, the one to run out first first. */
  holdShelf(request: PageRequest): Promise<Page<ShelfRow>>;
  /** Open loans at least `minDays` overdue at `now` (a part of a day counts as one), longest overdue first. */
  overdue(request: PageRequest, now: Date, minDays: number): Promise<Page<OverdueRow>>;
}

const person = (r: { person_id: number; slug: string; vorname: string; nachname: string }): PersonRef => ({
  id: r.person_id,
  slug: r.slug,
  vorname: r.vorname,
  nachname: r.nachname,
});

export function createStaffListStore(db: Kysely<DB>): StaffListStore {
  return {
    async patrons(request) {
      const q = request.q?.trim().toLowerCase();
      const rows = () => {
        let query = db
          .selectFrom('accounts')
          .innerJoin('persons', 'persons.id', 'accounts.person_id')
          .where('persons.deleted_at', 'is', null)
          .select([
            'persons.id as person_id',
            'persons.slug',
            'persons.vorname',
            'persons.nachname',
            'persons.sort_key',
            'accounts.card_number',
            'accounts.role',
            'accounts.locked_at',
          ])
          .select((eb) =>
            eb
              .selectFrom('loans')
              .select((e) => e.fn.countAll<number | string>().as('n'))
              .whereRef('loans.person_id', '=', 'persons.id')
              .where('loans.returned_at', 'is', null)
              .as('open_loans'),
          );
        if (q) {
          const pattern = `%${likeLiteral(q)}%`;
          query = query.where((eb) =>
            eb.or([
              eb(sql`lower(persons.vorname || ' ' || persons.nachname)`, 'like', sql`${pattern} escape '\\'`),
              eb(sql`lower(accounts.card_number)`, 'like', sql`${pattern} escape '\\'`),
            ]),
          );
        }
        return query;
      };
      return countedPage(
        request,
        {
          rows,
          columns: ['persons.sort_key', 'persons.id'],
          keyTypes: ['string', 'number'],
          keyOf: (r) => [r.sort_key, r.person_id],
        },
        (r) => ({
          ...person(r),
          cardNumber: r.card_number,
          role: r.role,
          locked: r.locked_at !== null,
          openLoans: Number(r.open_loans ?? 0),
        }),
      );
    },

    async holdShelf(request) {
      const rows = () =>
        db
          .selectFrom('holds')
          .innerJoin('persons', 'persons.id', 'holds.person_id')
          .innerJoin('works', 'works.id', 'holds.work_id')
          .innerJoin('copies', 'copies.id', 'holds.copy_id')
          .where('holds.ended_at', 'is', null)
          .where('holds.copy_id', 'is not', null)
          .where('holds.expires_at', 'is not', null)
          .select([
            'holds.id',
            'holds.person_id',
            'holds.ready_at',
            'holds.expires_at',
            'persons.slug',
            'persons.vorname',
            'persons.nachname',
            'works.slug as work_slug',
            'works.titel',
            'copies.nummer',
            'copies.barcode',
            'copies.signatur',
          ]);
      return countedPage(
        request,
        {
          rows,
          columns: ['holds.expires_at', 'holds.id'],
          keyTypes: ['string', 'number'],
          keyOf: (r) => [r.expires_at ?? '', r.id],
        },
        (r) => ({
          holdId: r.id,
          person: person(r),
          werk: { slug: r.work_slug, titel: r.titel },
          copy: { nummer: r.nummer, barcode: r.barcode, signatur: r.signatur },
          readyAt: new Date(r.ready_at ?? r.expires_at ?? 0),
          expiresAt: new Date(r.expires_at ?? 0),
        }),
      );
    },

    async overdue(request, now, minDays) {
      // Overdue by at least n days, a part of a day counting as one: due more than n-1 days ago.
      const dueBefore = new Date(now.getTime() - (Math.max(minDays, 1) - 1) * DAY_MS).toISOString();
      const rows = () =>
        db
          .selectFrom('loans')
          .innerJoin('persons', 'persons.id', 'loans.person_id')
          .innerJoin('works', 'works.id', 'loans.work_id')
          .leftJoin('copies', 'copies.id', 'loans.copy_id')
          .leftJoin('accounts', 'accounts.person_id', 'loans.person_id')
          .where('loans.returned_at', 'is', null)
          .where('loans.due_at', '<', dueBefore)
          .select([
            'loans.id',
            'loans.person_id',
            'loans.borrowed_at',
            'loans.due_at',
            'persons.slug',
            'persons.vorname',
            'persons.nachname',
            'accounts.card_number',
            'works.slug as work_slug',
            'works.titel',
            'copies.nummer',
            'copies.barcode',
            'copies.signatur',
          ]);
      return countedPage(
        request,
        {
          rows,
          columns: ['loans.due_at', 'loans.id'],
          keyTypes: ['string', 'number'],
          keyOf: (r) => [r.due_at, r.id],
        },
        (r) => ({
          loanId: r.id,
          person: person(r),
          cardNumber: r.card_number,
          werk: { slug: r.work_slug, titel: r.titel },
          copy:
            r.nummer === null || r.barcode === null || r.signatur === null
              ? null
              : { nummer: r.nummer, barcode: r.barcode, signatur: r.signatur },
          borrowedAt: new Date(r.borrowed_at),
          dueAt: new Date(r.due_at),
        }),
      );
    },
  };
}
