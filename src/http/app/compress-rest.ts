// onSend: compresses the text bodies that did not come through sendPrepared (which compresses
// representations itself, once per cached entry): problem details and error pages, and
// anything an application's own routes send (ADR 0014). Streams (the live error log) pass.
import type { HeaderSource, HeaderTarget } from './header-target.ts';
import {
  chooseEncoding,
  compress,
  encodedEtag,
  isCompressible,
  MIN_COMPRESS_BYTES,
} from '../compression/index.ts';
import { addVary, headerValue } from './layer.ts';

export function compressRest(request: HeaderSource, reply: HeaderTarget, payload: unknown): unknown {
  if (reply.hasHeader('Content-Encoding')) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const size = typeof payload === 'string' ? payload.length : payload.byteLength;
  const type = reply.getHeader('Content-Type');
  if (size < MIN_COMPRESS_BYTES || !isCompressible(typeof type === 'string' ? type : undefined))
    return payload;
  addVary(reply, 'Accept-Encoding');
  const coding = chooseEncoding(headerValue(request.headers, 'accept-encoding'));
  if (coding === null) return payload;
  const etag = reply.getHeader('ETag');
  if (typeof etag === 'string') reply.header('ETag', encodedEtag(etag, coding));
  reply.header('Content-Encoding', coding);
  reply.removeHeader('Content-Length');
  return compress(payload, coding);
}
