// A copy (Exemplar) of a work as the copy resources show it (issue 12, ADR 0058). Its status is
// derived, never stored: missing, else on loan, else held (kept for a hold), else available.
import type { PersonRef, WorkRef } from '../model.ts';

export type CopyStatus =
  | { readonly kind: 'verfuegbar' }
  /** `loanId` and `person` are shown to staff only. */
  | {
      readonly kind: 'ausgeliehen';
      readonly faellig: Date;
      readonly loanId: number;
      readonly person: PersonRef;
    }
  | { readonly kind: 'vorgemerkt'; readonly person: PersonRef }
  | { readonly kind: 'vermisst'; readonly since: Date };

export interface Copy {
  readonly id: number;
  /** The copy's number as text: its URL segment, for the write flow that addresses by slug. */
  readonly slug: string;
  readonly nummer: number;
  readonly werk: WorkRef;
  readonly signatur: string;
  readonly barcode: string;
  readonly standort: string;
  readonly status: CopyStatus;
  /** The stored version (`copies.updated_at`): compare-and-set of writes. */
  readonly updatedAt: Date;
  /** The representation's Last-Modified: the version or a later change of what its status shows. */
  readonly changedAt: Date;
  /** Kept for a hold: the status changes without a write when the hold runs out (ADR 0067). */
  readonly freshUntil?: Date;
}

/** Writable fields of a copy (PUT, PATCH, POST). */
export interface CopyInput {
  readonly signatur: string;
  readonly barcode: string;
  readonly standort: string;
  readonly vermisst: boolean;
}
