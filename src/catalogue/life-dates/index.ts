export { lifeDatesResource } from './resource.ts';
export { lifeDatesView, lifeDatesRepresentation } from './view.ts';
export { createLifeDatesStore, type LifeDates, type LifeDatesInput, type LifeDatesStore } from './store.ts';
export { LIFE_DATES_FIELDS } from './input.ts';
export { lifeDatesStrings } from './strings.ts';
