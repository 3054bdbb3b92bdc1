export { homeResource, type HomeOptions } from './resource.ts';
export { homeView, type HomeModel } from './view.ts';
