// `/rueckgabe` (staff): the desk's check-in by barcode (ADR 0061).
//   GET  the form; with `?barcode=` also that copy's latest loan (returned or still open)
//   POST `barcode`: returns the copy's open loan through the loan store. A browser's form gets
//        303 to `/rueckgabe?barcode=…` (the loan as checked in, its URL linked, and the form for
//        the next copy); an API client 200 with the same representation, whose `ausleihe.url`
//        (and `Link: rel=related`) is the loan's URL. Unknown barcode → 422; not on loan → 409.
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import { isFields } from '../../http/body/fields.ts';
import type { LoanStore } from '../loans/index.ts';
import { HttpError } from '../shared/index.ts';
import { formFlow } from '../writes/index.ts';
import { cleanBarcode, type CheckInStore, type CopyLoan } from './store.ts';
import { CHECK_IN_PATH, checkInPath, checkInRepresentation, type CheckInModel } from './view.ts';
import { lendingStrings } from '../loans/index.ts';

function requireStaff(ctx: RequestContext): void {
  if (ctx.user?.role !== 'staff') {
    throw new HttpError('SHELFMARK_FORBIDDEN', {
      detail: 'Check-in is for staff only.',
      localDetail: { de: 'Die Rückgabe ist nur für das Personal.', en: 'Check-in is for staff only.' },
    });
  }
}

function barcodeProblem(message: { de: string; en: string }, detail: string): HttpError {
  return new HttpError('SHELFMARK_VALIDATION_FAILED', {
    detail: `The barcode ${detail}.`,
    localDetail: message,
    extensions: { errors: [{ field: 'barcode', detail }] },
  });
}

function notOnLoan(): HttpError {
  return new HttpError('SHELFMARK_CONFLICT', {
    detail: 'This copy is not on loan: there is nothing to check in.',
    localDetail: { de: lendingStrings('de').notOnLoan, en: lendingStrings('en').notOnLoan },
  });
}

export function checkInResource(checkIns: CheckInStore, loans: LoanStore): ResourceDefinition {
  /** The copy with that barcode and its latest loan as the loan store reads it; null: no such copy. */
  async function copyLoan(barcode: string): Promise<CopyLoan | null> {
    const found = await checkIns.copyLoan(barcode);
    if (found === null) return null;
    const loan = found.loan && (await loans.loan(found.loan.personId, found.loan.loanId));
    return { barcode: found.barcode, signatur: found.signatur, loan: loan ?? null, keptFor: found.keptFor };
  }

  /** A barcode problem: the form again (422) for browsers, problem details for API clients. */
  function refused(ctx: RequestContext, value: string, which: 'unknownBarcode' | 'barcodeRequired'): Outcome {
    const message = { de: lendingStrings('de')[which], en: lendingStrings('en')[which] };
    const detail = which === 'unknownBarcode' ? 'names no copy of this library' : 'is required';
    if (!formFlow(ctx)) throw barcodeProblem(message, detail);
    const model: CheckInModel = { copy: null, problem: { value, message: message[ctx.lang] } };
    return { type: 'representation', status: 422, representation: checkInRepresentation(model) };
  }

  return {
    name: 'check-in',
    path: CHECK_IN_PATH,
    methods: {
      GET: async (ctx) => {
        requireStaff(ctx);
        const asked = ctx.query.get('barcode');
        if (asked === null)
          return { type: 'representation', representation: checkInRepresentation({ copy: null }) };
        const barcode = cleanBarcode(asked);
        const copy = barcode === null ? null : await copyLoan(barcode);
        if (copy === null)
          throw barcodeProblem(
            { de: lendingStrings('de').unknownBarcode, en: lendingStrings('en').unknownBarcode },
            'names no copy of this library',
          );
        return { type: 'representation', representation: checkInRepresentation({ copy }) };
      },

      POST: async (ctx) => {
        requireStaff(ctx);
        const value = isFields(ctx.body) ? ctx.body.barcode : undefined;
        const entered = typeof value === 'string' ? value : '';
        const barcode = cleanBarcode(value);
        if (barcode === null) return refused(ctx, entered, 'barcodeRequired');
        const before = await copyLoan(barcode);
        if (before === null) return refused(ctx, entered, 'unknownBarcode');
        const open = before.loan;
        // One conditional UPDATE in the loan store: a second desk scanning the same copy loses.
        const result =
          open === null || open.returnedAt !== null ? null : await loans.returnLoan(open.person.id, open.id);
        if (result === null || 'already' in result) {
          if (!formFlow(ctx)) throw notOnLoan();
          // The desk stays in its flow: the same page, the message, the field focused (ADR 0082).
          const model: CheckInModel = {
            copy: before,
            problem: { value: entered, message: lendingStrings(ctx.lang).notOnLoan },
          };
          return { type: 'representation', status: 409, representation: checkInRepresentation(model) };
        }
        if (formFlow(ctx)) return { type: 'redirect', status: 303, path: checkInPath(barcode) };
        const copy = (await copyLoan(barcode)) ?? { ...before, loan: result.returned };
        return { type: 'representation', representation: checkInRepresentation({ copy }) };
      },
    },
  };
}
