// POST /werke, PUT and DELETE /werke/{slug} (staff only; docs/methods.md): the catalogue's one write
// flow (writes/flow.ts) with the work's parts. Bodies are forms, JSON or XML with the
// representation's field names (input.ts); the `person` references are looked up.
import type { PersonStore, Work, WorkStore } from '../model.ts';
import { ForeignKeyError } from '../../storage/index.ts';
import { workPath, HttpError, WORKS_PATH } from '../shared/index.ts';
import {
  hasWriteMethods,
  problem,
  validationError,
  writeMethods,
  type WriteMethods,
} from '../writes/index.ts';
import { readWork, WORK_FIELD_NAMES, type WorkFields } from './input.ts';
import { workFormView, type WorkFormModel } from './forms.ts';
import { workRepresentation } from './work-view.ts';
import { CopiesOnLoanError, type SqlWorkStore } from './store.ts';

/** The write side of the work store (SqlWorkStore has it). */
export type WorkWriter = Pick<SqlWorkStore, 'create' | 'replace' | 'delete'>;
export type WritableWorkStore = WorkStore & WorkWriter;

export function isWritableWorkStore(store: WorkStore): store is WritableWorkStore {
  return hasWriteMethods(store);
}

/** A person deleted between reading the references and writing the links (another process) → 422. */
function personVanished(error: unknown) {
  if (!(error instanceof ForeignKeyError)) return undefined;
  return validationError([
    problem('person', 'names a person that was just deleted', {
      de: 'Eine der Personen wurde soeben gelöscht.',
      en: 'One of the persons was just deleted.',
    }),
  ]);
}

/** Fewer `exemplare` than the copies that cannot be withdrawn (lent, held, missing) → 409. */
function copiesOnLoan(error: unknown) {
  if (!(error instanceof CopiesOnLoanError)) return undefined;
  return new HttpError('SHELFMARK_COPY_ON_LOAN', {
    detail: 'Too few copies of this work are free to withdraw that many; nothing was changed.',
    localDetail: {
      de: 'So viele Exemplare sind nicht frei (ausgeliehen, vorgemerkt oder vermisst); nichts wurde geändert.',
      en: 'Too few copies of this work are free to withdraw that many; nothing was changed.',
    },
  });
}

/** POST (on `/werke`), PUT and DELETE (on `/werk`); `persons` resolves the `person` references. */
export function workWriteMethods(store: WritableWorkStore, persons: PersonStore): WriteMethods {
  return writeMethods<Work, WorkFields>({
    store,
    collection: WORKS_PATH,
    pathOf: workPath,
    representationOf: workRepresentation,
    // The persons the work shows now need no lookup: a slug is never another person's (ADR 0044).
    readInput: (ctx, current) => readWork(ctx.body, persons, ctx.links, current?.personen),
    fieldNames: WORK_FIELD_NAMES,
    formPage: ({ current, version, state, canonicalPath }) => {
      const model: WorkFormModel = {
        mode: current ? 'edit' : 'new',
        ...(current && { work: current }),
        version,
        state,
      };
      return { model, view: workFormView, canonicalPath };
    },
    refusal: (error) => personVanished(error) ?? copiesOnLoan(error),
    // A work's write only reads its persons; person writes hold the whole catalogue (ADR 0104).
    lockEach: true,
  });
}
