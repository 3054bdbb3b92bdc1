export {
  EVERYTHING,
  RepresentationCache,
  type CachedRepresentation,
  type ChangeBatch,
  type RepresentationCacheOptions,
  type RepresentationCacheStats,
  type WireResponse,
} from './representation-cache.ts';
