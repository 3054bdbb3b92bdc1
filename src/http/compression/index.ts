export { chooseEncoding, type Encoding } from './accept-encoding.ts';
export { compress, encodedEtag, isCompressible, MIN_COMPRESS_BYTES } from './compress.ts';
