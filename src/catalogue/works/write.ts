// POST /werke, PUT and DELETE /werke/{slug} (staff only; design §6). Bodies are forms, JSON or
// XML with the representation's field names (work-input.ts). API clients get 201 / 200 / 204
// with the representation; browsers (clients that want HTML) get 303 after success and the
// form again with status 422 when a field is wrong.
import type { Handler, Outcome, RequestContext } from '../../http/resource/types.ts';
import type { PersonStore, Work, WorkStore } from '../model.ts';
import { ForeignKeyError } from '../../storage/index.ts';
import { gone } from '../shared/errors.ts';
import { workPath } from '../shared/urls.ts';
import {
  againWhenChanged,
  conflictOf,
  deleteHandler,
  enteredValues,
  hasWriteMethods,
  invalidOutcome,
  problem,
  requireStaff,
  serialized,
  validationError,
  writeTarget,
  writtenOutcome,
  type WriteProblem,
} from '../writes/index.ts';
import { readWork, WORK_FIELD_NAMES } from './work-input.ts';
import { workFormView, type WorkFormModel } from './work-forms.ts';
import { workRepresentation } from './work-view.ts';
import type { SqlWorkStore } from './store.ts';

/** The write side of the work store (SqlWorkStore has it). */
export type WorkWriter = Pick<SqlWorkStore, 'create' | 'replace' | 'delete'>;
export type WritableWorkStore = WorkStore & WorkWriter;

export function isWritableWorkStore(store: WorkStore): store is WritableWorkStore {
  return hasWriteMethods(store);
}

/** 422: the form again for browsers, problem details (`errors`) for everyone else. */
function invalid(ctx: RequestContext, problems: WriteProblem[], current: Work | null): Outcome {
  return invalidOutcome(ctx, problems, () => {
    const model: WorkFormModel = {
      mode: current ? 'edit' : 'new',
      ...(current && { work: current }),
      version: current ? ctx.versionOf(workRepresentation(current)) : null,
      state: { values: enteredValues(ctx.body, WORK_FIELD_NAMES), problems },
    };
    return { model, view: workFormView, canonicalPath: current ? workPath(current.slug) : '/werke' };
  });
}

/** A person deleted between reading the references and writing the links (another process) → 422. */
function personVanished(error: unknown): never {
  if (error instanceof ForeignKeyError) {
    throw validationError([
      problem('person', 'names a person that was just deleted', {
        de: 'Eine der Personen wurde soeben gelöscht.',
        en: 'One of the persons was just deleted.',
      }),
    ]);
  }
  throw error;
}

function written(ctx: RequestContext, work: Work, created: boolean): Outcome {
  return writtenOutcome(ctx, workPath(work.slug), workRepresentation(work), created);
}

export function createWork(store: WritableWorkStore, persons: PersonStore): Handler {
  return async (ctx) => {
    requireStaff(ctx);
    return serialized('catalogue', async () => {
      const read = await readWork(ctx.body, persons, ctx.links);
      if (!read.ok) return invalid(ctx, read.problems, null);
      return written(ctx, await store.create(read.input).catch(personVanished), true);
    });
  };
}

export function putWork(store: WritableWorkStore, persons: PersonStore): Handler {
  return async (ctx) => {
    requireStaff(ctx);
    return serialized('catalogue', () =>
      againWhenChanged(async (): Promise<Outcome> => {
        const target = await writeTarget(store, ctx, '/werke');
        if ('redirect' in target) return target.redirect;
        const current = 'found' in target ? target.found : null;
        // Before anything is written: a stale If-Match or `_version` → 412, none when required → 428.
        ctx.checkPreconditions(current ? workRepresentation(current) : null);
        const read = await readWork(ctx.body, persons, ctx.links);
        if (!read.ok) return invalid(ctx, read.problems, current);
        if (current) {
          const work = await store
            .replace(current.id, read.input, { expectedUpdatedAt: current.updatedAt })
            .catch(personVanished);
          if (!work) throw gone();
          return written(ctx, work, false);
        }
        const slug = 'free' in target ? target.free : '';
        const work = await store.create({ ...read.input, slug }).catch((e: unknown) => {
          if (e instanceof ForeignKeyError) personVanished(e);
          return conflictOf(e);
        });
        return written(ctx, work, true);
      }),
    );
  };
}

export function deleteWork(store: WritableWorkStore): Handler {
  return deleteHandler(store, '/werke', workRepresentation);
}
