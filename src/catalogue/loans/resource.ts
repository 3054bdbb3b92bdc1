// Handlers of the loan resources (docs/urls.md, docs/methods.md, docs/access.md):
//   /ausleihen?benutzer={id}  (readable /ausleihen/{id})       GET: current loans, POST: borrow
//   /ausleihe?benutzer={id}&id={loan}  (/ausleihen/{id}/{loan}) GET: the loan, DELETE: return it
//   /ausleihen                                                  GET: open loans by due date (staff)
// Access is checked first, on every method: owner or staff, else 403 (access.ts).
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import { isFields } from '../../http/body/fields.ts';
import { formFlow } from '../writes/index.ts';
import type { PersonRef } from '../model.ts';
import { gone, HttpError, notFound, clockChanges, freshUntilField } from '../shared/index.ts';
import { DUE_PATH, idParam, loanPath, loansPath, requireOwnerOrStaff, requireStaff } from './access.ts';
import { dueInstants, dueView, type DueModel } from './due-view.ts';
import { loanChangedAt, loanRepresentation } from './loan-view.ts';
import { loansInstants, loansView, type LoansModel } from './loans-view.ts';
import type { Loan, LoanStore } from './model.ts';
import { DEFAULT_DUE_LIMIT, LOAN_DAYS } from './store.ts';
import { parseWerkField, WERK_FIELD_PROBLEM } from './werk-field.ts';
import { deskReturnsProblem } from './lending-problems.ts';
import { borrowRefusal, invalidExemplar, invalidWerk } from './borrow-refusals.ts';
import { EXEMPLAR_FIELD_PROBLEM, parseExemplarField } from './copy-field.ts';
import type { DeskStore } from '../desk/index.ts';
import { DEFAULT_OVERDUE_BLOCK_DAYS } from './overdue.ts';
import { routeOf } from '../registry/index.ts';
import { collection, subject } from '../changes.ts';
import type { LoanModel } from './loan-view.ts';

/**
 * A member's loans show the member, each loan's work (title, copy, whether a hold blocks its
 * renewal) and the member's other loans (overdue ones block); the staff's list every open loan,
 * its member's name and its copy (ADR 0098).
 */
function loansShow(model: LoansModel | DueModel): string[] {
  if (!('person' in model))
    return [collection.loans, collection.persons, collection.works, collection.copies];
  const { person, items } = model;
  return [
    subject.person(person.id),
    subject.loansOf(person.id),
    ...items.map((l) => subject.work(l.werk.id)),
  ];
}

/** One loan: its member's (whose other loans may block a renewal) and its work's lending. */
const loanShows = ({ loan }: LoanModel): string[] => [
  subject.person(loan.person.id),
  subject.loansOf(loan.person.id),
  subject.work(loan.werk.id),
];

export interface LoanResourceOptions {
  /** Clock deciding which loans are overdue (tests pin it). */
  readonly now?: () => Date;
  /** Loan period shown beside the borrow form; the store's setting decides (default 28). */
  readonly loanDays?: number;
  /** Most loans the staff list shows (default 500). */
  readonly dueLimit?: number;
  /** Members may return their own loans (SHELFMARK_MEMBER_RETURNS; default: staff only, ADR 0061). */
  readonly memberReturns?: boolean;
  /** Days overdue that block borrowing: for the 409's text; the store decides (default 14). */
  readonly overdueBlockDays?: number;
  /** Renewals allowed per loan, so no renew button is shown once they are used up (the store decides). */
  readonly maxRenewals?: number;
  /** Finds the copy an `exemplar` field names (ADR 0082); without it a borrow names only a work. */
  readonly copies?: Pick<DeskStore, 'copy'>;
}

/** The person whose loans are asked for, after the access check: 404 unknown, 410 deleted. */
async function livePerson(store: LoanStore, personId: number | null): Promise<PersonRef> {
  if (personId === null) throw notFound();
  const found = await store.person(personId);
  if (found === null || 'movedTo' in found) throw notFound(`There is no user ${personId}.`);
  if ('gone' in found) throw gone(`User ${personId} was deleted.`);
  return found.found;
}

/** An HTML form's POST carries `_method` when it stands for PUT or DELETE. */
const isFormOverride = (ctx: RequestContext): boolean =>
  isFields(ctx.body) && Object.hasOwn(ctx.body, '_method');

export function loansResource(store: LoanStore, opts: LoanResourceOptions = {}): ResourceDefinition {
  const now = opts.now ?? (() => new Date());
  const loanDays = opts.loanDays ?? LOAN_DAYS;

  async function dueList(ctx: RequestContext): Promise<Outcome> {
    requireStaff(ctx);
    const model: DueModel = { items: await store.due(opts.dueLimit ?? DEFAULT_DUE_LIMIT), now: now() };
    const { freshUntil } = clockChanges(dueInstants(model), model.now);
    return {
      type: 'representation',
      representation: {
        model,
        view: dueView,
        canonicalPath: DUE_PATH,
        ...freshUntilField(freshUntil),
        schema: 'due-loans',
      },
    };
  }

  return {
    name: 'loans',
    // Overdue-ness is the clock's: each representation says until when it holds (freshUntil,
    // ADR 0067), so the representation cache may keep it until then (ADR 0048).
    cacheable: true,
    dependsOn: loansShow,
    path: routeOf('DueLoans'),
    // `/ausleihen` is the staff's list of loans due (GET only); POST borrows at a user's loans.
    methodsAt: (query) => (query.get('benutzer') === null ? ['GET'] : ['GET', 'POST']),
    methods: {
      GET: async (ctx) => {
        if (ctx.query.get('benutzer') === null) return dueList(ctx);
        const personId = idParam(ctx, 'benutzer');
        requireOwnerOrStaff(ctx, personId);
        const person = await livePerson(store, personId);
        const current = await store.currentLoans(person.id);
        const at = now();
        const memberReturns = opts.memberReturns ?? false;
        const model: LoansModel = {
          person,
          items: current.items,
          now: at,
          loanDays,
          memberReturns,
          ...(opts.overdueBlockDays !== undefined && { overdueBlockDays: opts.overdueBlockDays }),
          ...(opts.maxRenewals !== undefined && { maxRenewals: opts.maxRenewals }),
        };
        // Overdue and blocked come with the clock (ADR 0067): the moments passed count, the
        // next one ends the cached rendering.
        const clock = clockChanges(loansInstants(model), at);
        const changes = [
          current.lastChange,
          clock.changedAt,
          ...current.items.map((l) => loanChangedAt(l, at)),
        ];
        const times = changes.filter((d): d is Date => d !== null).map((d) => d.getTime());
        return {
          type: 'representation',
          representation: {
            model,
            view: loansView,
            canonicalPath: loansPath(person.id),
            ...(times.length > 0 && { lastModified: new Date(Math.max(...times)) }),
            ...freshUntilField(clock.freshUntil),
            schema: 'loans',
          },
        };
      },

      POST: async (ctx) => {
        // methodsAt keeps the dispatcher from calling this for `/ausleihen`; a direct call gets the same.
        if (ctx.query.get('benutzer') === null) {
          throw new HttpError('SHELFMARK_METHOD_NOT_ALLOWED', {
            detail: 'Borrow at the loans of a user: POST /ausleihen/{user_id}.',
            headers: { Allow: 'GET, HEAD, OPTIONS' },
          });
        }
        const personId = idParam(ctx, 'benutzer');
        requireOwnerOrStaff(ctx, personId);
        const person = await livePerson(store, personId);
        const fields = isFields(ctx.body) ? ctx.body : {};
        const exemplar = fields.exemplar;
        const value = fields.werk;
        let outcome;
        if (opts.copies && exemplar !== undefined && exemplar !== null && exemplar !== '') {
          // One particular copy (ADR 0082): its URL or barcode names its work too.
          const copyKey = parseExemplarField(exemplar, ctx.links);
          const copy = copyKey === null ? null : await opts.copies.copy(copyKey);
          if (copy === null) throw invalidExemplar(EXEMPLAR_FIELD_PROBLEM);
          outcome = await store.borrow(person.id, { id: copy.workId }, { copyId: copy.id });
        } else {
          if (value === undefined || value === null || value === '') throw invalidWerk('is required');
          const key = parseWerkField(value, ctx.links);
          if (key === null) throw invalidWerk(WERK_FIELD_PROBLEM);
          outcome = await store.borrow(person.id, key);
        }
        if (!outcome.ok)
          throw borrowRefusal(outcome.reason, opts.overdueBlockDays ?? DEFAULT_OVERDUE_BLOCK_DAYS);
        const path = loanPath(person.id, outcome.loan.id);
        // Post/Redirect/Get for browsers: back to the list, which now shows the new loan.
        if (formFlow(ctx)) return { type: 'redirect', status: 303, path: loansPath(person.id) };
        return {
          type: 'representation',
          status: 201,
          location: path,
          representation: loanRepresentation(outcome.loan, now(), opts),
        };
      },
    },
  };
}

export function loanResource(store: LoanStore, opts: LoanResourceOptions = {}): ResourceDefinition {
  const now = opts.now ?? (() => new Date());
  const memberReturns = opts.memberReturns ?? false;

  /** The open loan the URL names (after the access check): 404 unknown, 410 returned. */
  async function openLoan(ctx: RequestContext): Promise<Loan> {
    const personId = idParam(ctx, 'benutzer');
    requireOwnerOrStaff(ctx, personId);
    const loanId = idParam(ctx, 'id');
    if (personId === null || loanId === null) throw notFound();
    const loan = await store.loan(personId, loanId);
    if (loan === null) {
      await livePerson(store, personId); // an unknown or deleted user says so
      throw notFound(`User ${personId} has no loan ${loanId}.`);
    }
    if (loan.returnedAt !== null) throw gone('This loan was returned.');
    return loan;
  }

  return {
    name: 'loan',
    // Fresh until it falls due (freshUntil, ADR 0067): cacheable like the catalogue's resources.
    cacheable: true,
    dependsOn: loanShows,
    path: routeOf('Loan'),
    methods: {
      GET: async (ctx) => ({
        type: 'representation',
        representation: loanRepresentation(await openLoan(ctx), now(), opts),
      }),

      DELETE: async (ctx) => {
        // Returns are checked in by staff unless members may return their own (ADR 0061);
        // another member still gets the ordinary 403 of openLoan's access check.
        requireOwnerOrStaff(ctx, idParam(ctx, 'benutzer'));
        if (ctx.user?.role !== 'staff' && !memberReturns) throw deskReturnsProblem();
        const loan = await openLoan(ctx);
        ctx.checkPreconditions(loanRepresentation(loan, now(), opts));
        const result = await store.returnLoan(loan.person.id, loan.id);
        if (result === null) throw notFound();
        if ('already' in result) throw gone('This loan was returned.');
        if (isFormOverride(ctx)) return { type: 'redirect', status: 303, path: loansPath(loan.person.id) };
        return { type: 'empty', status: 204 };
      },
    },
  };
}
