// `/theke` (staff): the desk's lending (ADR 0082).
//   GET  the card form; `?ausweis=` a card number (the patron served, their open loans and the
//        barcode form) or, when no card has it, a name or part of a card number (the matches);
//        `&ausgeliehen={loan}` confirms the loan just made.
//   POST `ausweis` and `barcode` (one copy, exactly that one) or `werk` (a work's URL or slug:
//        the work page's staff button; the copy is the free one the loan store picks). A browser's
//        form gets 303 back to the desk for the next scan; an API client 201 with `Location` and
//        the loan, as `POST /ausleihen/{user_id}` answers. A refusal (409/422) re-renders the desk
//        for a browser with the message beside the field, the field focused; API clients get the
//        problem details (docs/errors.md).
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import { isFields } from '../../http/body/fields.ts';
import { cleanCardNumber } from '../accounts/index.ts';
import { cleanBarcode } from '../check-in/index.ts';
import {
  DEFAULT_OVERDUE_BLOCK_DAYS,
  borrowRefusal,
  invalidWerk,
  lendingStrings,
  loanPath,
  loanRepresentation,
  parseWerkField,
  WERK_FIELD_PROBLEM,
} from '../loans/index.ts';
import type { BorrowOutcome, Loan, LoanStore } from '../loans/index.ts';
import { parseId, HttpError } from '../shared/index.ts';
import { formFlow } from '../writes/index.ts';
import { DESK_PATH, deskPath } from './paths.ts';
import type { DeskStore, Patron } from './store.ts';
import { deskStrings } from './strings.ts';
import { deskRepresentation, type DeskModel } from './view.ts';

export interface DeskOptions {
  readonly now?: () => Date;
  /** Days overdue that block borrowing, for the refusal's text (the loan store decides). */
  readonly overdueBlockDays?: number;
  readonly memberReturns?: boolean;
}

const MATCH_LIMIT = 20;

function requireStaff(ctx: RequestContext): void {
  if (ctx.user?.role !== 'staff') {
    throw new HttpError('SHELFMARK_FORBIDDEN', {
      detail: 'The desk is for staff only.',
      localDetail: { de: 'Die Theke ist nur für das Personal.', en: 'The desk is for staff only.' },
    });
  }
}

function cardProblem(which: 'unknownCard' | 'cardRequired'): HttpError {
  const detail = which === 'unknownCard' ? 'names no account of this library' : 'is required';
  return new HttpError('SHELFMARK_VALIDATION_FAILED', {
    detail: `The library card number ${detail}.`,
    localDetail: { de: deskStrings('de')[which], en: deskStrings('en')[which] },
    extensions: { errors: [{ field: 'ausweis', detail }] },
  });
}

/** The text a refusal shows on the page, in the page's language. */
const messageOf = (error: HttpError, ctx: RequestContext): string =>
  error.localDetail?.[ctx.lang] ?? error.detail ?? error.title;

export function deskResource(desk: DeskStore, loans: LoanStore, opts: DeskOptions = {}): ResourceDefinition {
  const now = opts.now ?? (() => new Date());
  const overdueBlockDays = opts.overdueBlockDays ?? DEFAULT_OVERDUE_BLOCK_DAYS;

  async function patronModel(patron: Patron, extra: Partial<DeskModel> = {}): Promise<DeskModel> {
    const current = await loans.currentLoans(patron.id);
    return { patron, loans: current.items, ...extra };
  }

  /** The desk again with the refusal beside its field: the status is the problem's. */
  function refusedPage(model: DeskModel, error: HttpError): Outcome {
    const status = error.status === 409 ? 409 : 422;
    return { type: 'representation', status, representation: deskRepresentation(model) };
  }

  /** Lends what the form names to the patron: one copy by barcode, or a work. */
  async function lend(patron: Patron, fields: Record<string, unknown>, ctx: RequestContext): Promise<Loan> {
    let outcome: BorrowOutcome;
    if (fields.werk !== undefined && fields.werk !== '' && fields.barcode === undefined) {
      const key = parseWerkField(fields.werk, ctx.links);
      if (key === null) throw invalidWerk(WERK_FIELD_PROBLEM);
      outcome = await loans.borrow(patron.id, key);
    } else {
      const barcode = cleanBarcode(fields.barcode);
      if (barcode === null) throw barcodeProblem('required');
      const copy = await desk.copy({ barcode });
      if (copy === null) throw barcodeProblem('unknown');
      outcome = await loans.borrow(patron.id, { id: copy.workId }, { copyId: copy.id });
    }
    if (!outcome.ok) throw borrowRefusal(outcome.reason, overdueBlockDays);
    return outcome.loan;
  }

  return {
    name: 'desk',
    path: DESK_PATH,
    methods: {
      GET: async (ctx) => {
        requireStaff(ctx);
        const asked = ctx.query.get('ausweis');
        if (asked === null)
          return { type: 'representation', representation: deskRepresentation({ patron: null, loans: [] }) };
        const card = cleanCardNumber(asked);
        const patron = card === null ? null : await desk.patronByCard(card);
        if (patron !== null) {
          const lentId = parseId(ctx.query.get('ausgeliehen') ?? '');
          const current = await loans.currentLoans(patron.id);
          const lent = lentId === null ? undefined : current.items.find((l) => l.id === lentId);
          return {
            type: 'representation',
            representation: deskRepresentation({ patron, loans: current.items, ...(lent && { lent }) }),
          };
        }
        const query = asked.trim();
        if (query === '') {
          const error = cardProblem('cardRequired');
          if (ctx.format !== 'html') throw error;
          const model: DeskModel = {
            patron: null,
            loans: [],
            problem: { field: 'ausweis', value: '', message: messageOf(error, ctx) },
          };
          return refusedPage(model, error);
        }
        const matches = await desk.findPatrons(query, MATCH_LIMIT);
        const model: DeskModel = {
          patron: null,
          loans: [],
          query,
          matches,
          ...(matches.length === 0 && {
            problem: {
              field: 'ausweis' as const,
              value: query,
              message: deskStrings(ctx.lang).noMatch(query),
            },
          }),
        };
        return { type: 'representation', representation: deskRepresentation(model) };
      },

      POST: async (ctx) => {
        requireStaff(ctx);
        const fields = isFields(ctx.body) ? (ctx.body as Record<string, unknown>) : {};
        const card = cleanCardNumber(fields.ausweis);
        const patron = card === null ? null : await desk.patronByCard(card);
        if (patron === null) {
          const error = cardProblem(card === null ? 'cardRequired' : 'unknownCard');
          if (!formFlow(ctx)) throw error;
          const value = typeof fields.ausweis === 'string' ? fields.ausweis : '';
          return refusedPage(
            { patron: null, loans: [], problem: { field: 'ausweis', value, message: messageOf(error, ctx) } },
            error,
          );
        }
        let loan: Loan;
        try {
          loan = await lend(patron, fields, ctx);
        } catch (error) {
          if (!(error instanceof HttpError) || !formFlow(ctx)) throw error;
          const value = typeof fields.barcode === 'string' ? fields.barcode : '';
          return refusedPage(
            await patronModel(patron, {
              problem: { field: 'barcode', value, message: messageOf(error, ctx) },
            }),
            error,
          );
        }
        if (formFlow(ctx))
          return { type: 'redirect', status: 303, path: deskPath(patron.cardNumber, loan.id) };
        return {
          type: 'representation',
          status: 201,
          location: loanPath(patron.id, loan.id),
          representation: loanRepresentation(loan, now(), opts),
        };
      },
    },
  };
}

function barcodeProblem(which: 'unknown' | 'required'): HttpError {
  const t = { de: lendingStrings('de'), en: lendingStrings('en') };
  const key = which === 'unknown' ? 'unknownBarcode' : 'barcodeRequired';
  const detail = which === 'unknown' ? 'names no copy of this library' : 'is required';
  return new HttpError('SHELFMARK_VALIDATION_FAILED', {
    detail: `The barcode ${detail}.`,
    localDetail: { de: t.de[key], en: t.en[key] },
    extensions: { errors: [{ field: 'barcode', detail }] },
  });
}
