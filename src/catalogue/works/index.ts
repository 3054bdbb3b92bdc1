export { workResource, worksResource } from './resource.ts';
export { workView } from './work-view.ts';
export { worksView, workCard, type WorksModel } from './works-view.ts';
