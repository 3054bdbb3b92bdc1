// Handlers of the hold resources (docs/urls.md, ADR 0059):
//   /vormerkungen?slug=|id=   (readable /personen/{slug}/vormerkungen)       GET: list, POST: place
//   /vormerkung?slug=&id=     (/personen/{slug}/vormerkungen/{id})           GET: one, DELETE: cancel
//   /warteschlange?slug=|id=  (/werke/{slug}/vormerkungen)                   GET: the queue (staff)
// Access is checked first: the member or staff (access.ts). Statuses depend on the clock: each
// representation says until when it holds (freshUntil: the earliest ready hold of the works shown
// runs out), so the representation cache keeps them until then (ADR 0048, 0067); Last-Modified
// covers every hold of the works shown, settled up to now.
import type { Outcome, RequestContext, ResourceDefinition } from '../../http/resource/types.ts';
import { isFields } from '../../http/body/fields.ts';
import { formFlow } from '../writes/index.ts';
import { parseWerkField, WERK_FIELD_PROBLEM } from '../loans/index.ts';
import type { PersonRef, WorkRef } from '../model.ts';
import { gone, notFound, lookUp, resolve, parseId, freshUntilField } from '../shared/index.ts';
import { forbidden, holdPath, holdsPath, isStaff, queuePath, requireMemberOrStaff } from './access.ts';
import { holdRepresentation } from './hold-view.ts';
import { holdsView, queueView, type HoldsModel, type QueueModel } from './list-views.ts';
import type { Hold, HoldStore } from './model.ts';
import { HOLD_DAYS } from './queue.ts';
import { invalidWerk, placeRefusal } from './refusals.ts';
import { routeOf } from '../registry/index.ts';
import { subject } from '../changes.ts';

/**
 * A hold, a member's holds and a work's queue show each hold's work (its queue, copies and
 * loans decide status and position) and member (ADR 0098).
 */
function holdsShow(model: HoldsModel | QueueModel | Hold): string[] {
  if ('holdDays' in model)
    return [
      subject.person(model.person.id),
      subject.holdsOf(model.person.id),
      ...model.items.map((h) => subject.work(h.werk.id)),
    ];
  if ('items' in model)
    return [subject.work(model.werk.id), ...model.items.map((h) => subject.person(h.person.id))];
  return [subject.work(model.werk.id), subject.person(model.person.id), subject.holdsOf(model.person.id)];
}

export interface HoldResourceOptions {
  /** Days a copy is kept, shown beside the form; the store's setting decides (default 7). */
  readonly holdDays?: number;
}

/** The member the URL names, after the access check; a redirect when the slug moved (staff). */
async function member(
  store: HoldStore,
  ctx: RequestContext,
  pathOf: (slug: string) => string,
): Promise<{ found: PersonRef } | { redirect: Outcome }> {
  if (ctx.user === null) throw forbidden(ctx, 'holds');
  const lookup = await lookUp({ bySlug: store.personBySlug, byId: store.personById }, ctx);
  if (!isStaff(ctx)) requireMemberOrStaff(ctx, lookup !== null && 'found' in lookup ? lookup.found.id : null);
  return resolve(lookup, pathOf);
}

const isFormOverride = (ctx: RequestContext): boolean =>
  isFields(ctx.body) && Object.hasOwn(ctx.body, '_method');

export function holdsResource(store: HoldStore, opts: HoldResourceOptions = {}): ResourceDefinition {
  const holdDays = opts.holdDays ?? HOLD_DAYS;
  return {
    name: 'holds',
    cacheable: true,
    dependsOn: holdsShow,
    path: routeOf('Holds'),
    methods: {
      GET: async (ctx) => {
        const result = await member(store, ctx, holdsPath);
        if ('redirect' in result) return result.redirect;
        const person = result.found;
        const list = await store.holdsOf(person.id);
        const model: HoldsModel = { person, items: list.items, holdDays };
        return {
          type: 'representation',
          representation: {
            model,
            view: holdsView,
            canonicalPath: holdsPath(person.slug),
            ...(list.lastChange !== null && { lastModified: list.lastChange }),
            ...freshUntilField(list.freshUntil),
            schema: 'holds',
          },
        };
      },

      POST: async (ctx) => {
        const result = await member(store, ctx, holdsPath);
        if ('redirect' in result) throw notFound();
        const person = result.found;
        const value = isFields(ctx.body) ? ctx.body.werk : undefined;
        if (value === undefined || value === null || value === '') throw invalidWerk('is required');
        const key = parseWerkField(value, ctx.links);
        if (key === null) throw invalidWerk(WERK_FIELD_PROBLEM);
        const outcome = await store.place(person.id, key);
        if (!outcome.ok) throw placeRefusal(outcome.reason);
        // Post/Redirect/Get for browsers: back to the list, which now shows the new hold.
        if (formFlow(ctx)) return { type: 'redirect', status: 303, path: holdsPath(person.slug) };
        return {
          type: 'representation',
          status: 201,
          location: holdPath(person.slug, outcome.hold.id),
          representation: holdRepresentation(outcome.hold, null),
        };
      },
    },
  };
}

export function holdResource(store: HoldStore): ResourceDefinition {
  /** The open hold the URL names (after the access check): 404 unknown, 410 ended. */
  async function openHold(
    ctx: RequestContext,
  ): Promise<{ hold: Hold; lastChange: Date | null; freshUntil?: Date } | Outcome> {
    const holdId = parseId(ctx.query.get('id'));
    const slug = ctx.query.get('slug');
    if (ctx.user === null) throw forbidden(ctx, 'holds');
    const lookup = slug === null ? null : await store.personBySlug(slug);
    if (!isStaff(ctx))
      requireMemberOrStaff(ctx, lookup !== null && 'found' in lookup ? lookup.found.id : null);
    const result = resolve(lookup, (s) => (holdId === null ? holdsPath(s) : holdPath(s, holdId)));
    if ('redirect' in result) return result.redirect;
    if (holdId === null) throw notFound();
    const hold = await store.hold(result.found.id, holdId);
    if (hold === null) throw notFound(`This member has no hold ${holdId}.`);
    if (hold.status === 'ended') throw gone(`This hold ended (${hold.endReason ?? 'ended'}).`);
    const queue = await store.queue(hold.werk.id);
    return { hold, lastChange: queue.lastChange, ...freshUntilField(queue.freshUntil) };
  }

  return {
    name: 'hold',
    cacheable: true,
    dependsOn: holdsShow,
    path: routeOf('Hold'),
    methods: {
      GET: async (ctx) => {
        const found = await openHold(ctx);
        if (!('hold' in found)) return found;
        return {
          type: 'representation',
          representation: holdRepresentation(found.hold, found.lastChange, found.freshUntil),
        };
      },

      DELETE: async (ctx) => {
        const found = await openHold(ctx);
        if (!('hold' in found)) throw notFound();
        const { hold } = found;
        ctx.checkPreconditions(holdRepresentation(hold, found.lastChange));
        const result = await store.cancel(hold.person.id, hold.id);
        if (result === null) throw notFound();
        if ('ended' in result) throw gone('This hold ended.');
        if (isFormOverride(ctx)) {
          // Staff cancelling from a work's queue go back to it; members to their list.
          const back =
            isStaff(ctx) && ctx.user?.id !== hold.person.id
              ? queuePath(hold.werk.slug)
              : holdsPath(hold.person.slug);
          return { type: 'redirect', status: 303, path: back };
        }
        return { type: 'empty', status: 204 };
      },
    },
  };
}

export function queueResource(store: HoldStore): ResourceDefinition {
  return {
    name: 'hold-queue',
    cacheable: true,
    dependsOn: holdsShow,
    path: routeOf('HoldQueue'),
    methods: {
      GET: async (ctx) => {
        if (!isStaff(ctx)) throw forbidden(ctx, 'queue');
        const result = resolve(
          await lookUp<WorkRef>({ bySlug: store.workBySlug, byId: store.workById }, ctx),
          queuePath,
        );
        if ('redirect' in result) return result.redirect;
        const werk = result.found;
        const queue = await store.queue(werk.id);
        const model: QueueModel = { werk, items: queue.items };
        return {
          type: 'representation',
          representation: {
            model,
            view: queueView,
            canonicalPath: queuePath(werk.slug),
            ...(queue.lastChange !== null && { lastModified: queue.lastChange }),
            ...freshUntilField(queue.freshUntil),
            schema: 'hold-queue',
          },
        };
      },
    },
  };
}
