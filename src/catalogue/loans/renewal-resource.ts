// `/verlaengerung?benutzer={id}&id={loan}` (readable `/ausleihen/{id}/{loan}/verlaengerung`):
// POST renews the loan (ADR 0060). Not idempotent — each renewal moves the due date again — so
// POST, to a resource of its own that stands for "the loan's renewal"; it has no GET. The answer
// is the loan as it is now (200; a form gets 303 to the loan list); refusals are 409 problems
// that say why, a returned loan 410 like the loan's own URL.
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { formFlow } from '../writes/index.ts';
import { gone, HttpError, notFound } from '../shared/index.ts';
import { idParam, loansPath, requireOwnerOrStaff } from './access.ts';
import { loanRepresentation } from './loan-view.ts';
import type { LoanStore } from './model.ts';
import type { RenewalStore, RenewOutcome } from './renew.ts';
import { routeOf } from '../registry/index.ts';

export { renewalPath } from './access.ts';

function refusal(outcome: Extract<RenewOutcome, { ok: false }>, max: number): HttpError {
  switch (outcome.reason) {
    case 'returned':
      return gone('This loan was returned.');
    case 'limit':
      return new HttpError('SHELFMARK_RENEWAL_LIMIT', {
        detail: `This loan was renewed ${outcome.renewals} times already, as often as allowed (${outcome.allowed ?? max}).`,
        localDetail: {
          de: `Diese Ausleihe wurde schon ${outcome.renewals}-mal verlängert, öfter geht es nicht.`,
          en: `This loan was renewed ${outcome.renewals} times already, as often as allowed.`,
        },
      });
    case 'held':
      return new HttpError('SHELFMARK_WORK_HELD', {
        detail: 'Another member has placed a hold on this work: it cannot be renewed.',
        localDetail: {
          de: 'Eine andere Person hat dieses Werk vorgemerkt: Die Ausleihe kann nicht verlängert werden.',
          en: 'Another member has placed a hold on this work: it cannot be renewed.',
        },
      });
  }
}

export function renewalResource(
  loans: LoanStore,
  renewals: RenewalStore,
  opts: { readonly now?: () => Date } = {},
): ResourceDefinition {
  const now = opts.now ?? (() => new Date());
  return {
    name: 'renewal',
    path: routeOf('Renewal'),
    methods: {
      POST: async (ctx) => {
        const personId = idParam(ctx, 'benutzer');
        requireOwnerOrStaff(ctx, personId);
        const loanId = idParam(ctx, 'id');
        if (personId === null || loanId === null) throw notFound();
        const outcome = await renewals.renew(personId, loanId);
        if (outcome === null) throw notFound(`User ${personId} has no loan ${loanId}.`);
        if (!outcome.ok) throw refusal(outcome, renewals.maxRenewals);
        if (formFlow(ctx)) return { type: 'redirect', status: 303, path: loansPath(personId) };
        const loan = await loans.loan(personId, loanId);
        if (loan === null) throw notFound();
        return { type: 'representation', representation: loanRepresentation(loan, now()) };
      },
    },
  };
}
