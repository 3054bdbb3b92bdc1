export {
  RepresentationCache,
  type CachedRepresentation,
  type RepresentationCacheOptions,
  type RepresentationCacheStats,
} from './representation-cache.ts';
