export { sqlFeedSource, FEED_SIZE, type FeedEntry, type FeedSource } from './source.ts';
export {
  ATOM_TYPE,
  FEED_TITLES,
  feedAlternate,
  feedRepresentation,
  feedXml,
  newestOf,
  type Feed,
} from './atom.ts';
export {
  OPENSEARCH_TYPE,
  openSearchDescription,
  registerOpenSearchRoute,
  searchTemplate,
} from './opensearch.ts';
