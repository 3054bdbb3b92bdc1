// The notices as resources (ADR 0092), read-only, one route like the loans' (`/ausleihen`):
//   /benachrichtigungen                  every notice (staff)
//   /benachrichtigungen?slug=|id=        a person's (readable /personen/{slug}/benachrichtigungen):
//                                        that person and staff; anyone else 403, and only staff
//                                        learn that a person does not exist (404/410), as for holds
// Both newest first, `status=geplant|gesendet|fehlgeschlagen|entfallen`, keyset-paged. Not kept
// by the representation cache: the notice job changes them without the change counter.
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import type { PersonRef } from '../model.ts';
import { HttpError } from '../shared/index.ts';
import { lookUp, resolve, type Finder } from '../shared/index.ts';
import { linkHeaders, listQuery, loadPage } from '../shared/index.ts';
import { filteredPageLinks, filteredPath } from '../staff-lists/index.ts';
import type { NoticeListStore } from './list-store.ts';
import { noticesRepresentation, type NoticesModel } from './list-view.ts';
import { NOTICES_PATH, personNoticesPath } from './paths.ts';
import { STATUS_NAMES, stateOf, type StatusName } from './status.ts';

const isStaff = (ctx: RequestContext): boolean => ctx.user?.role === 'staff';

function forbidden(ctx: RequestContext, whose: 'own' | 'all'): HttpError {
  const detail =
    whose === 'own'
      ? 'Notices can only be seen by the person they were sent to and by staff.'
      : 'The list of all notices is for staff only.';
  return new HttpError('SHELFMARK_FORBIDDEN', {
    detail: ctx.user === null ? `${detail} Please log in.` : detail,
    localDetail: {
      de:
        whose === 'own'
          ? 'Benachrichtigungen sehen nur die Person, an die sie gingen, und das Personal.'
          : 'Die Liste aller Benachrichtigungen ist nur für das Personal.',
      en: detail,
    },
  });
}

/** `status`: one of STATUS_NAMES or empty (every state); anything else is 400. */
function statusOf(ctx: RequestContext): StatusName | undefined {
  const raw = ctx.query.get('status');
  if (raw === null || raw === '') return undefined;
  if (stateOf(raw) === undefined)
    throw new HttpError('SHELFMARK_BAD_REQUEST', {
      detail: `status must be one of ${STATUS_NAMES.join(', ')}.`,
      localDetail: {
        de: `„status“ muss einer dieser Werte sein: ${STATUS_NAMES.join(', ')}.`,
        en: `status must be one of ${STATUS_NAMES.join(', ')}.`,
      },
    });
  return raw as StatusName;
}

export function noticesResource(store: NoticeListStore, persons: Finder<PersonRef>): ResourceDefinition {
  async function list(ctx: RequestContext, person: PersonRef | null): Promise<Outcome> {
    const status = statusOf(ctx);
    const query = { ...listQuery(ctx), q: undefined };
    const state = status === undefined ? undefined : stateOf(status);
    const page = await loadPage(
      store.list({ ...(person && { personId: person.id }), ...(state && { state }) }, query),
    );
    const collection = person ? personNoticesPath(person.slug) : NOTICES_PATH;
    const filters = { status };
    const links = filteredPageLinks(collection, filters, query, page, ctx);
    const model: NoticesModel = {
      person,
      status,
      page,
      links,
      canonicalPath: filteredPath(collection, filters, query),
      staff: isStaff(ctx),
    };
    const representation = noticesRepresentation(model);
    return { type: 'representation', representation: { ...representation, links: linkHeaders(links) } };
  }

  return {
    name: 'notices',
    path: NOTICES_PATH,
    methods: {
      GET: async (ctx) => {
        const own = ctx.query.get('slug') !== null || ctx.query.get('id') !== null;
        if (!own) {
          if (!isStaff(ctx)) throw forbidden(ctx, 'all');
          return list(ctx, null);
        }
        if (ctx.user === null) throw forbidden(ctx, 'own');
        const lookup = await lookUp(persons, ctx);
        if (!isStaff(ctx)) {
          const id = lookup !== null && 'found' in lookup ? lookup.found.id : null;
          if (id === null || id !== ctx.user.id) throw forbidden(ctx, 'own');
        }
        const result = resolve(lookup, personNoticesPath);
        if ('redirect' in result) return result.redirect;
        return list(ctx, result.found);
      },
    },
  };
}
