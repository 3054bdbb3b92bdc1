// The staff lists as resources (ADR 0092), each GET only, staff only, keyset-paged (`nach`,
// `vor`, `anzahl`, ADR 0043) and counted (`gesamt`, ADR 0025):
//   /leser                    the patrons (`q`: name or card number)
//   /abholregal               the hold shelf
//   /ausleihen/ueberfaellig   overdue loans (`tage`: at least that many days overdue, default 1)
// The hold shelf and the overdue loans change with the clock, so none of them is kept by the
// representation cache (not `cacheable`): they are read by few, and always fresh.
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import { HttpError } from '../shared/index.ts';
import { linkHeaders, listQuery, loadPage } from '../shared/index.ts';
import { requireStaff } from './access.ts';
import { holdShelfView, type HoldShelfModel } from './hold-shelf-view.ts';
import { filteredPageLinks, filteredPath } from './list-links.ts';
import { overdueView, type OverdueModel } from './overdue-view.ts';
import { HOLD_SHELF_PATH, OVERDUE_PATH, PATRONS_PATH } from './paths.ts';
import { patronsRepresentation } from './patrons-view.ts';
import type { StaffListStore } from './store.ts';

export interface StaffListOptions {
  readonly now?: () => Date;
}

/** Days overdue a list may ask for: up to ten years. */
export const MAX_DAYS = 3650;

/** `tage`: a whole number of days from 1 to MAX_DAYS, default 1; anything else is 400. */
export function minDaysOf(ctx: RequestContext): number {
  const raw = ctx.query.get('tage');
  if (raw === null || raw === '') return 1;
  const n = /^[0-9]{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_DAYS))
    throw new HttpError('SHELFMARK_BAD_REQUEST', {
      detail: `tage must be a whole number of days from 1 to ${MAX_DAYS}.`,
      localDetail: {
        de: `„tage“ muss eine ganze Zahl von 1 bis ${MAX_DAYS} sein.`,
        en: `tage must be a whole number of days from 1 to ${MAX_DAYS}.`,
      },
    });
  return n;
}

export function patronsResource(store: StaffListStore): ResourceDefinition {
  return {
    name: 'patrons',
    path: PATRONS_PATH,
    methods: {
      GET: async (ctx): Promise<Outcome> => {
        requireStaff(ctx, { de: 'Leserinnen und Leser', en: 'patrons' });
        const query = listQuery(ctx);
        const page = await loadPage(store.patrons(query));
        const links = filteredPageLinks(PATRONS_PATH, {}, query, page, ctx);
        const canonicalPath = filteredPath(PATRONS_PATH, {}, query);
        const representation = patronsRepresentation({ query, page, links, canonicalPath });
        return { type: 'representation', representation: { ...representation, links: linkHeaders(links) } };
      },
    },
  };
}

export function holdShelfResource(store: StaffListStore, opts: StaffListOptions = {}): ResourceDefinition {
  const now = opts.now ?? (() => new Date());
  return {
    name: 'hold-shelf',
    path: HOLD_SHELF_PATH,
    methods: {
      GET: async (ctx): Promise<Outcome> => {
        requireStaff(ctx, { de: 'Abholregal', en: 'the hold shelf' });
        const query = { ...listQuery(ctx), q: undefined };
        const page = await loadPage(store.holdShelf(query));
        const links = filteredPageLinks(HOLD_SHELF_PATH, {}, query, page, ctx);
        const model: HoldShelfModel = {
          page,
          links,
          canonicalPath: filteredPath(HOLD_SHELF_PATH, {}, query),
          now: now(),
        };
        return {
          type: 'representation',
          representation: {
            model,
            view: holdShelfView,
            canonicalPath: model.canonicalPath,
            schema: 'hold-shelf',
            links: linkHeaders(links),
          },
        };
      },
    },
  };
}

export function overdueResource(store: StaffListStore, opts: StaffListOptions = {}): ResourceDefinition {
  const now = opts.now ?? (() => new Date());
  return {
    name: 'overdue-loans',
    path: OVERDUE_PATH,
    methods: {
      GET: async (ctx): Promise<Outcome> => {
        requireStaff(ctx, { de: 'Überfällige Ausleihen', en: 'overdue loans' });
        const minDays = minDaysOf(ctx);
        const query = { ...listQuery(ctx), q: undefined };
        const at = now();
        const page = await loadPage(store.overdue(query, at, minDays));
        const filters = { tage: minDays === 1 ? undefined : String(minDays) };
        const links = filteredPageLinks(OVERDUE_PATH, filters, query, page, ctx);
        const model: OverdueModel = {
          page,
          links,
          canonicalPath: filteredPath(OVERDUE_PATH, filters, query),
          now: at,
          minDays,
        };
        return {
          type: 'representation',
          representation: {
            model,
            view: overdueView,
            canonicalPath: model.canonicalPath,
            schema: 'overdue-loans',
            links: linkHeaders(links),
          },
        };
      },
    },
  };
}
