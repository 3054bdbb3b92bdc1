export { chooseEncoding } from './accept-encoding.ts';
export { compress, encodedEtag, isCompressible, MIN_COMPRESS_BYTES } from './compress.ts';
