export { personResource, personsResource } from './resource.ts';
export { personView } from './person-view.ts';
export { personsView, type PersonsModel } from './persons-view.ts';
