// Staff's editing of the circulation rules over HTTP (ADR 0093 on ADR 0084; docs/urls.md).
// Staff only, reading as well as writing (others: 403 unread, ADR 0077).
// `/ausleihregeln/medientypen`          GET the item types; POST creates one (201, Location).
// `/ausleihregeln/medientypen/{code}`   GET; PUT replaces (the code stays); PATCH merges;
//                                       DELETE (409 SHELFMARK_ITEM_TYPE_IN_USE while copies have it).
// `/ausleihregeln/schliesstage`         GET the closed days; POST adds one (201; 409 if it is there).
// `/ausleihregeln/schliesstage/{tag}`   GET; PUT sets the day's reason (creates the day: 201);
//                                       DELETE.
// Writes carry the layer's preconditions (If-Match / `_version`) and CSRF; a form gets 303 back.
import { applyMergePatch, parseMediaType, unsupportedPatch, type Fields } from '../../http/body/index.ts';
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import { ConflictError } from '../../storage/index.ts';
import { HttpError, notFound } from '../shared/index.ts';
import { againWhenChanged } from '../writes/index.ts';
import { serialized } from '../writes/index.ts';
import { formFlow, hasBody, requireStaff, staffOnly } from '../writes/index.ts';
import { invalidOutcome, writtenOutcome } from '../writes/index.ts';
import { enteredValues } from '../writes/index.ts';
import { validationError } from '../writes/index.ts';
import { isDay } from './calendar.ts';
import { closedDayRepresentation, closedDaysRepresentation } from './closed-day-views.ts';
import { CLOSED_DAYS_PATH, ITEM_TYPES_PATH, closedDayPath, itemTypePath } from './editing-paths.ts';
import { readClosedDay, readCode, readItemType, CODE_PATTERN } from './editing-input.ts';
import { ItemTypeInUseError, type RulesEditingStore } from './editing-store.ts';
import { rulesStrings } from './editing-strings.ts';
import { itemTypeRepresentation, itemTypesRepresentation } from './item-type-views.ts';
import { routeOf } from '../registry/index.ts';

const TYPE_FIELDS = [
  'code',
  'bezeichnung',
  'bezeichnungEn',
  'ausleihbar',
  'leihfristTage',
  'verlaengerungen',
  'hoechstens',
];

/** A staff-only read: the same 403 as the writes, before anything is looked up. */
const staffRead = (handler: (ctx: RequestContext) => Promise<Outcome>) =>
  staffOnly(async (ctx) => {
    requireStaff(ctx);
    return handler(ctx);
  });

const write = (handler: (ctx: RequestContext) => Promise<Outcome>) =>
  staffOnly((ctx) => {
    requireStaff(ctx);
    return serialized('catalogue', () => againWhenChanged(() => handler(ctx)));
  });

function inUse(error: ItemTypeInUseError, code: string): HttpError {
  return new HttpError('SHELFMARK_ITEM_TYPE_IN_USE', {
    detail: `The item type "${code}" is the type of ${error.copies} copies; give them another type first.`,
    localDetail: { de: rulesStrings('de').inUse(error.copies), en: rulesStrings('en').inUse(error.copies) },
  });
}

const merged = (ctx: RequestContext, current: unknown): Fields => {
  if (ctx.body === undefined || ctx.body === null) throw unsupportedPatch(parseMediaType(undefined));
  return applyMergePatch(JSON.parse(JSON.stringify(current)) as Fields, ctx.body as Fields) as Fields;
};

export function itemTypeResources(store: RulesEditingStore): ResourceDefinition[] {
  const codeOf = (ctx: RequestContext) => ctx.query.get('code') ?? '';
  const find = async (ctx: RequestContext) => {
    const code = codeOf(ctx);
    const type = CODE_PATTERN.test(code) ? await store.itemType(code) : null;
    if (!type) throw notFound('There is no such item type.');
    return type;
  };

  async function replace(ctx: RequestContext, patch: boolean): Promise<Outcome> {
    const type = await find(ctx);
    const current = itemTypeRepresentation(type);
    ctx.checkPreconditions(current);
    const body = patch ? merged(ctx, current.view.json(current.model, { ...ctx, format: 'json' })) : ctx.body;
    const form = formFlow(ctx) && !patch;
    const read = readItemType(body, form);
    if (!read.input)
      return invalidOutcome(ctx, read.problems, () =>
        itemTypeRepresentation(type, { values: enteredValues(body, TYPE_FIELDS), problems: read.problems }),
      );
    const written = await store.replaceItemType(type.code, read.input, { expectedUpdatedAt: type.updatedAt });
    if (!written) throw notFound('There is no such item type.');
    return writtenOutcome(ctx, itemTypePath(type.code), itemTypeRepresentation(written), false);
  }

  return [
    {
      name: 'item-types',
      path: ITEM_TYPES_PATH,
      methods: {
        GET: staffRead(async () => ({
          type: 'representation',
          representation: itemTypesRepresentation(await store.itemTypes()),
        })),
        POST: write(async (ctx) => {
          const code = readCode(ctx.body);
          const read = readItemType(ctx.body, formFlow(ctx));
          const problems = [...(typeof code === 'string' ? [] : [code]), ...read.problems];
          if (problems.length > 0 || typeof code !== 'string' || !read.input) {
            const types = await store.itemTypes();
            return invalidOutcome(ctx, problems, () =>
              itemTypesRepresentation(types, { values: enteredValues(ctx.body, TYPE_FIELDS), problems }),
            );
          }
          try {
            const created = await store.createItemType(code, read.input);
            return writtenOutcome(ctx, itemTypePath(code), itemTypeRepresentation(created), true);
          } catch (error) {
            if (!(error instanceof ConflictError)) throw error;
            throw new HttpError('SHELFMARK_CONFLICT', {
              detail: `The item type "${code}" exists already.`,
              localDetail: { de: rulesStrings('de').codeTaken, en: rulesStrings('en').codeTaken },
            });
          }
        }),
      },
    },
    {
      name: 'item-type',
      path: routeOf('ItemType'),
      methods: {
        GET: staffRead(async (ctx) => ({
          type: 'representation',
          representation: itemTypeRepresentation(await find(ctx)),
        })),
        PUT: write((ctx) => replace(ctx, false)),
        PATCH: write((ctx) => replace(ctx, true)),
        DELETE: write(async (ctx) => {
          const type = await find(ctx);
          ctx.checkPreconditions(itemTypeRepresentation(type));
          try {
            if (!(await store.deleteItemType(type.code))) throw notFound('There is no such item type.');
          } catch (error) {
            if (error instanceof ItemTypeInUseError) throw inUse(error, type.code);
            throw error;
          }
          return formFlow(ctx) && hasBody(ctx)
            ? { type: 'redirect', status: 303, path: ITEM_TYPES_PATH }
            : { type: 'empty', status: 204 };
        }),
      },
    },
  ];
}

export function closedDayResources(store: RulesEditingStore): ResourceDefinition[] {
  const dayOf = (ctx: RequestContext) => {
    const day = ctx.query.get('tag') ?? '';
    if (!isDay(day)) throw notFound('There is no such day.');
    return day;
  };
  const find = async (ctx: RequestContext) => {
    const day = await store.closedDay(dayOf(ctx));
    if (!day) throw notFound('That day is not a closed day.');
    return day;
  };

  return [
    {
      name: 'closed-days',
      path: CLOSED_DAYS_PATH,
      methods: {
        GET: staffRead(async () => ({
          type: 'representation',
          representation: closedDaysRepresentation(await store.closedDays()),
        })),
        POST: write(async (ctx) => {
          const read = readClosedDay(ctx.body, true);
          if (read.day === undefined || read.reason === undefined) {
            const days = await store.closedDays();
            return invalidOutcome(ctx, read.problems, () =>
              closedDaysRepresentation(days, {
                values: enteredValues(ctx.body, ['tag', 'anlass']),
                problems: read.problems,
              }),
            );
          }
          if (await store.closedDay(read.day))
            throw new HttpError('SHELFMARK_CONFLICT', {
              detail: `${read.day} is a closed day already; PUT its URL to change its reason.`,
            });
          const { day } = await store.putClosedDay(read.day, read.reason);
          return writtenOutcome(ctx, closedDayPath(day.day), closedDayRepresentation(day), true);
        }),
      },
    },
    {
      name: 'closed-day',
      path: routeOf('ClosedDay'),
      methods: {
        GET: staffRead(async (ctx) => ({
          type: 'representation',
          representation: closedDayRepresentation(await find(ctx)),
        })),
        PUT: write(async (ctx) => {
          const day = dayOf(ctx);
          const existing = await store.closedDay(day);
          ctx.checkPreconditions(existing ? closedDayRepresentation(existing) : null);
          const read = readClosedDay(ctx.body, false);
          if (read.reason === undefined) {
            if (!existing) throw validationError(read.problems);
            return invalidOutcome(ctx, read.problems, () =>
              closedDayRepresentation(existing, {
                values: enteredValues(ctx.body, ['anlass']),
                problems: read.problems,
              }),
            );
          }
          const put = await store.putClosedDay(day, read.reason);
          return writtenOutcome(ctx, closedDayPath(day), closedDayRepresentation(put.day), put.created);
        }),
        DELETE: write(async (ctx) => {
          const day = await find(ctx);
          ctx.checkPreconditions(closedDayRepresentation(day));
          if (!(await store.deleteClosedDay(day.day))) throw notFound('That day is not a closed day.');
          return formFlow(ctx) && hasBody(ctx)
            ? { type: 'redirect', status: 303, path: CLOSED_DAYS_PATH }
            : { type: 'empty', status: 204 };
        }),
      },
    },
  ];
}
