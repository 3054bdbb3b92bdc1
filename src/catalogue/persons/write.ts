// POST /personen, PUT and DELETE /personen/{slug} (staff only; design §6). Bodies are forms,
// JSON or XML with the representation's field names (person-input.ts). API clients get 201 /
// 200 / 204 with the representation; browsers (clients that want HTML) get 303 after success and
// the form again with status 422 when a field is wrong.
import type { Handler, Outcome, RequestContext } from '../../http/resource/types.ts';
import type { Person, PersonStore } from '../model.ts';
import { gone } from '../shared/errors.ts';
import { personPath } from '../shared/urls.ts';
import {
  againWhenChanged,
  conflictOf,
  deleteHandler,
  enteredValues,
  hasWriteMethods,
  invalidOutcome,
  requireStaff,
  serialized,
  writeTarget,
  writtenOutcome,
  type WriteProblem,
} from '../writes/index.ts';
import { PERSON_FIELD_NAMES, readPerson } from './person-input.ts';
import { personFormView, type PersonFormModel } from './person-forms.ts';
import { personRepresentation } from './person-view.ts';
import type { SqlPersonStore } from './store.ts';

/** The write side of the person store (SqlPersonStore has it). */
export type PersonWriter = Pick<SqlPersonStore, 'create' | 'replace' | 'delete'>;
export type WritablePersonStore = PersonStore & PersonWriter;

export function isWritablePersonStore(store: PersonStore): store is WritablePersonStore {
  return hasWriteMethods(store);
}

/** 422: the form again for browsers, problem details (`errors`) for everyone else. */
function invalid(ctx: RequestContext, problems: WriteProblem[], current: Person | null): Outcome {
  return invalidOutcome(ctx, problems, () => {
    const model: PersonFormModel = {
      mode: current ? 'edit' : 'new',
      ...(current && { person: current }),
      version: current ? ctx.versionOf(personRepresentation(current)) : null,
      state: { values: enteredValues(ctx.body, PERSON_FIELD_NAMES), problems },
    };
    return { model, view: personFormView, canonicalPath: current ? personPath(current.slug) : '/personen' };
  });
}

function written(ctx: RequestContext, person: Person, created: boolean): Outcome {
  return writtenOutcome(ctx, personPath(person.slug), personRepresentation(person), created);
}

export function createPerson(store: WritablePersonStore): Handler {
  return async (ctx) => {
    requireStaff(ctx);
    const read = readPerson(ctx.body, ctx.links);
    if (!read.ok) return invalid(ctx, read.problems, null);
    const person = await serialized('catalogue', () => store.create(read.input));
    return written(ctx, person, true);
  };
}

export function putPerson(store: WritablePersonStore): Handler {
  return async (ctx) => {
    requireStaff(ctx);
    return serialized('catalogue', () =>
      againWhenChanged(async (): Promise<Outcome> => {
        const target = await writeTarget(store, ctx, '/personen');
        if ('redirect' in target) return target.redirect;
        const current = 'found' in target ? target.found : null;
        // Before anything is written: a stale If-Match or `_version` → 412, none when required → 428.
        ctx.checkPreconditions(current ? personRepresentation(current) : null);
        const read = readPerson(ctx.body, ctx.links);
        if (!read.ok) return invalid(ctx, read.problems, current);
        if (current) {
          const person = await store.replace(current.id, read.input, {
            expectedUpdatedAt: current.updatedAt,
          });
          if (!person) throw gone();
          return written(ctx, person, false);
        }
        const slug = 'free' in target ? target.free : '';
        const person = await store.create({ ...read.input, slug }).catch(conflictOf);
        return written(ctx, person, true);
      }),
    );
  };
}

export function deletePerson(store: WritablePersonStore): Handler {
  return deleteHandler(store, '/personen', personRepresentation);
}
