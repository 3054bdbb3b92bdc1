// `/lebensdaten` (`?slug=` / `?id=` of the person, reached from `/personen/{slug}/lebensdaten`
// by the rewrite table): GET for everyone, PUT for staff through the catalogue's one write flow
// (writes/flow.ts, ADR 0023), which here never creates: the life dates exist with their person.
import type { ResourceDefinition } from '../../http/resource/types.ts';
import { lookUp, resolve, lifeDatesPath } from '../shared/index.ts';
import { visibleTo } from '../persons/index.ts';
import { subject } from '../changes.ts';
import { replaceMethod } from '../writes/index.ts';
import { lifeDatesFormView, type LifeDatesFormModel } from './forms.ts';
import { LIFE_DATES_FIELD_NAMES, readLifeDates } from './input.ts';
import type { LifeDates, LifeDatesInput, LifeDatesStore } from './store.ts';
import { lifeDatesRepresentation } from './view.ts';
import { routeOf } from '../registry/index.ts';

export function lifeDatesResource(store: LifeDatesStore): ResourceDefinition {
  return {
    name: 'life-dates',
    // Rendered from the database alone: the layer may cache it (ADR 0048).
    cacheable: true,
    dependsOn: (d: LifeDates) => [subject.person(d.id)],
    path: routeOf('LifeDates'),
    methods: {
      GET: async (ctx) => {
        // A private person's life dates are theirs and staff's; to anyone else unknown (ADR 0062).
        const result = resolve(visibleTo(await lookUp(store, ctx), ctx.user), lifeDatesPath);
        if ('redirect' in result) return result.redirect;
        return { type: 'representation', representation: lifeDatesRepresentation(result.found) };
      },
      PUT: replaceMethod<LifeDates, LifeDatesInput>({
        store,
        pathOf: lifeDatesPath,
        representationOf: lifeDatesRepresentation,
        readInput: async (ctx) => readLifeDates(ctx.body),
        fieldNames: LIFE_DATES_FIELD_NAMES,
        formPage: ({ current, version, state, canonicalPath }) => {
          if (!current) throw new Error('life dates are never created by a form');
          const model: LifeDatesFormModel = { lifeDates: current, version, state };
          return { model, view: lifeDatesFormView, canonicalPath };
        },
      }),
    },
  };
}
