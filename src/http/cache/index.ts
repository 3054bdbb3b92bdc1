export {
  RepresentationCache,
  type CachedRepresentation,
  type RepresentationCacheOptions,
  type RepresentationCacheStats,
  type WireResponse,
} from './representation-cache.ts';
