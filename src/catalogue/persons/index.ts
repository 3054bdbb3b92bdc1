export { personResource, personsResource } from './resource.ts';
export { personView } from './person-view.ts';
export { personsView, type PersonsModel } from './persons-view.ts';
export { IMAGE_MAX, NAME_MAX, PERSON_FIELDS } from './input.ts';
export { createPersonStore, personSortKey, type PersonInput, type SqlPersonStore } from './store.ts';
export { visibleTo } from './visibility.ts';
