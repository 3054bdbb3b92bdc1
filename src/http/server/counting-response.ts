// A ServerResponse that counts the body bytes handed to it (for %b / %B), whether the body is
// sent with end(payload) or streamed with write(); passed to http.createServer as its
// ServerResponse class so no per-request wrapping is needed.
import { ServerResponse, type IncomingMessage } from 'node:http';

export interface RequestLogState {
  startMs: number;
  startHr: number;
  requestLine: string | undefined;
  method: string | undefined;
  target: string | undefined;
  protocol: string;
  /** Set when the connection failed while the request body was read. */
  statusOverride: number | undefined;
  /** False when httpd would have refused before reading the headers (414). */
  headersRead: boolean;
}

function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string')
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}

export class CountingResponse<Req extends IncomingMessage = IncomingMessage> extends ServerResponse<Req> {
  bodyBytes = 0;
  logState: RequestLogState | undefined = undefined;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override write(chunk: any, ...rest: any[]): boolean {
    this.bodyBytes += byteLength(chunk, rest[0]);
    return (super.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override end(...args: any[]): this {
    if (!this.writableEnded) this.bodyBytes += byteLength(args[0], args[1]);
    return (super.end as (...a: unknown[]) => this)(...args);
  }
}
