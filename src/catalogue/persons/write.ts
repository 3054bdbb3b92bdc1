// POST /personen, PUT, PATCH and DELETE /personen/{slug} (staff only; docs/methods.md): the catalogue's one
// write flow (writes/flow.ts) with the person's parts. Bodies are forms, JSON or XML with the
// representation's field names (input.ts).
import type { Person, PersonStore } from '../model.ts';
import { personPath, PERSONS_PATH } from '../shared/index.ts';
import { hasWriteMethods, writeMethods, type WriteMethods } from '../writes/index.ts';
import { PERSON_FIELD_NAMES, readPerson, type PersonFields } from './input.ts';
import { personFormView, type PersonFormModel } from './forms.ts';
import { personRepresentation } from './person-view.ts';
import type { SqlPersonStore } from './store.ts';
import { PersonHasLendingError, personHasLendingProblem } from '../loans/index.ts';
import { lastStaffRefusal } from '../accounts/index.ts';

/** The write side of the person store (SqlPersonStore has it). */
export type PersonWriter = Pick<SqlPersonStore, 'create' | 'replace' | 'delete'>;
export type WritablePersonStore = PersonStore & PersonWriter;

export function isWritablePersonStore(store: PersonStore): store is WritablePersonStore {
  return hasWriteMethods(store);
}

/** POST (on `/personen`), PUT, PATCH and DELETE (on `/person`). */
export function personWriteMethods(store: WritablePersonStore): WriteMethods {
  return writeMethods<Person, PersonFields>({
    store,
    collection: PERSONS_PATH,
    pathOf: personPath,
    representationOf: personRepresentation,
    // Reading a person looks nothing up: no references.
    readInput: async (ctx) => readPerson(ctx.body, ctx.links),
    fieldNames: PERSON_FIELD_NAMES,
    // The store refuses to delete a person with open loans or holds (ADR 0061): 409.
    // Nor the person of the last staff account (ADR 0077).
    refusal: (error) =>
      error instanceof PersonHasLendingError ? personHasLendingProblem(error) : lastStaffRefusal(error),
    formPage: ({ current, version, state, canonicalPath }) => {
      const model: PersonFormModel = {
        mode: current ? 'edit' : 'new',
        ...(current && { person: current }),
        version,
        state,
      };
      return { model, view: personFormView, canonicalPath };
    },
  });
}
