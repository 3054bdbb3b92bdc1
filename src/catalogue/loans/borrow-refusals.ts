// The refusals of a borrow as problem details (docs/errors.md): the loans' POST and the desk
// (ADR 0082) answer the same codes with the same text.
import { HttpError, notFound } from '../shared/index.ts';
import { loanLimitProblem, notLendableProblem, overdueLoansProblem } from './lending-problems.ts';
import type { BorrowRefusal } from './model.ts';

export function invalidWerk(detail: string): HttpError {
  return new HttpError('SHELFMARK_VALIDATION_FAILED', {
    detail: 'The work to borrow is missing or unknown.',
    localDetail: {
      de: 'Das Werk fehlt oder ist in dieser Bibliothek unbekannt.',
      en: 'The work to borrow is missing or unknown.',
    },
    extensions: { errors: [{ field: 'werk', detail }] },
  });
}

export function borrowRefusal(reason: BorrowRefusal, overdueBlockDays: number): HttpError {
  switch (reason) {
    case 'no-copy-free':
      return new HttpError('SHELFMARK_CONFLICT', {
        detail: 'Every copy of this work is lent out.',
        localDetail: {
          de: 'Alle Exemplare dieses Werks sind ausgeliehen.',
          en: 'Every copy of this work is lent out.',
        },
      });
    case 'already-borrowed':
      return new HttpError('SHELFMARK_CONFLICT', {
        detail: 'This user has already borrowed this work.',
        localDetail: {
          de: 'Dieses Werk ist bereits an diese Person ausgeliehen.',
          en: 'This user has already borrowed this work.',
        },
      });
    case 'unknown-work':
      return invalidWerk('names no work of this library');
    case 'work-gone':
      return invalidWerk('names a work that was deleted');
    case 'unknown-person':
      return notFound('There is no such user.');
    case 'overdue-loans':
      return overdueLoansProblem(overdueBlockDays);
    case 'not-lendable':
      return notLendableProblem();
    case 'loan-limit':
      return loanLimitProblem();
    case 'unknown-copy':
      return invalidExemplar('names no copy of this work');
    case 'copy-on-loan':
      return new HttpError('SHELFMARK_COPY_ON_LOAN', {
        detail: 'This copy is on loan: check it in first.',
        localDetail: {
          de: 'Dieses Exemplar ist ausgeliehen; bitte zuerst zurücknehmen.',
          en: 'This copy is on loan: check it in first.',
        },
      });
    case 'copy-held':
      return new HttpError('SHELFMARK_COPY_HELD', {
        detail: 'This copy is kept on the hold shelf for another member.',
        localDetail: {
          de: 'Dieses Exemplar liegt für eine andere Person im Abholregal.',
          en: 'This copy is kept on the hold shelf for another member.',
        },
      });
  }
}

export function invalidExemplar(detail: string): HttpError {
  return new HttpError('SHELFMARK_VALIDATION_FAILED', {
    detail: 'The copy to lend is missing or unknown.',
    localDetail: {
      de: 'Das Exemplar fehlt oder ist in dieser Bibliothek unbekannt.',
      en: 'The copy to lend is missing or unknown.',
    },
    extensions: { errors: [{ field: 'exemplar', detail }] },
  });
}
