export {
  EVERYTHING,
  RepresentationCache,
  type CachedRepresentation,
  type ChangeBatch,
} from './representation-cache.ts';
