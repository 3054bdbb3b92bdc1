// Per-connection bookkeeping, fed by a 'data' listener placed before Node's parser:
// - the time the first byte of the current request arrived (%t is when the request line was
//   read, not when the head was complete or the line written), and
// - the raw bytes of the current request's head, so a request the parser rejects can be logged
//   with httpd's %r rebuilt from what the client really sent.
// Adding the listener makes Node feed its parser from JavaScript instead of consuming the
// socket in C++; bench/access-log.bench.ts measures what that costs.
import type { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';

const HEAD_CAP = 80 * 1024; // more than maxHeaderSize: the parser fails before we stop keeping bytes
const EMPTY = Buffer.alloc(0);

export class ConnectionState {
  startMs: number | undefined = undefined;
  startHr = 0;
  chunks: Buffer[] = [];
  bytes = 0;
  /** Body bytes of the dispatched request still to come (not part of any head). */
  skip = 0;
  /** A chunked body is being read: keep nothing until its request ends. */
  skipUntilEnd = false;
  /** Requests handed to the application on this connection. */
  served = 0;
  /** The request whose body is still being read, and its response. */
  reading: IncomingMessage | undefined = undefined;
  rejected = false;

  onData(chunk: Buffer): void {
    if (this.skip > 0) {
      if (chunk.length <= this.skip) {
        this.skip -= chunk.length;
        return;
      }
      chunk = chunk.subarray(this.skip);
      this.skip = 0;
    }
    if (this.skipUntilEnd) return;
    if (this.startMs === undefined) {
      this.startMs = Date.now();
      this.startHr = performance.now();
    }
    if (this.bytes < HEAD_CAP) {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
    }
  }

  pending(): Buffer {
    if (this.chunks.length === 0) return EMPTY;
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }

  /** The parser dispatched a request: drop its head (and known-length body) from the buffer. */
  consumeHead(contentLength: number, chunked: boolean): void {
    let buf = this.pending();
    let start = 0;
    while (start < buf.length && (buf[start] === 13 || buf[start] === 10)) start++;
    const end = buf.indexOf('\r\n\r\n', start);
    buf = end < 0 ? EMPTY : buf.subarray(end + 4);
    if (chunked) {
      this.skipUntilEnd = true;
      buf = EMPTY;
    } else if (contentLength > 0) {
      if (buf.length >= contentLength) buf = buf.subarray(contentLength);
      else {
        this.skip = contentLength - buf.length;
        buf = EMPTY;
      }
    }
    this.chunks = buf.length ? [buf] : [];
    this.bytes = buf.length;
    // A pipelined request already in the buffer arrived now; otherwise wait for its first byte.
    this.startMs = buf.length ? Date.now() : undefined;
    if (buf.length) this.startHr = performance.now();
  }

  bodyEnded(): void {
    this.skipUntilEnd = false;
    this.reading = undefined;
  }
}

const kState = Symbol('shelfmark.connection');
type WithState = Socket & { [kState]?: ConnectionState };

export function attachState(socket: Socket): ConnectionState {
  const st = new ConnectionState();
  (socket as WithState)[kState] = st;
  socket.prependListener('data', (chunk: Buffer) => st.onData(chunk));
  return st;
}

export function stateOf(socket: Socket): ConnectionState | undefined {
  return (socket as WithState)[kState];
}
