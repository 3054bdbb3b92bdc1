export { workResource, worksResource } from './resource.ts';
export { workView } from './work-view.ts';
export { worksView, workCard, type WorksModel } from './works-view.ts';
export { COPIES_MAX, PERSONS_MAX, TITLE_MAX, WORK_FIELDS, YEAR_MAX, YEAR_MIN } from './input.ts';
export { refreshWorkSearchText, workSearchText } from './search-text.ts';
export { createWorkStore, personsOfWorks, workSortKey, type SqlWorkStore, type WorkInput } from './store.ts';
export { facetFilters, ITEM_TYPE_CODE, MAX_FACET_VALUES } from './facet-query.ts';
export {
  countFacets,
  disjunctiveFacets,
  FACET_SAMPLE,
  LIST_FACETS,
  personFacetScope,
  type FacetedList,
} from './facets.ts';
export { facetsHtml, facetsJson, facetsModel, facetsXml, type FacetsModel } from './facets-view.ts';
