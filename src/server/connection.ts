// Per-connection bookkeeping, fed by a 'data' listener placed before Node's parser:
// - the time the first byte of the current request arrived (%t is when the request line was
//   read, not when the head was complete or the line written), and
// - the raw bytes of the current request's head, so a request the parser rejects can be logged
//   with httpd's %r rebuilt from what the client really sent,
// - the body bytes of the request being read, for mod_reqtimeout's MinRate (body-clock.ts), and
// - the peer's address, read when the connection opens: a socket closed by a reset no longer
//   knows it, and the request's log line is written after that.
// Adding the listener makes Node feed its parser from JavaScript instead of consuming the
// socket in C++; bench/access-log.bench.ts measures what that costs.
import type { Socket } from 'node:net';
import type { BodyClock } from './body-clock.ts';
import type { CountingResponse } from './counting-response.ts';

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
  /** The response of the request whose body is still being read (res.req is the request). */
  reading: CountingResponse | undefined = undefined;
  /** The deadline of that body (mod_reqtimeout's body stage), when one is set. */
  bodyClock: BodyClock | undefined = undefined;
  rejected = false;
  /** The peer (IPv4-mapped addresses unwrapped) and the ports, as the connection opened. */
  readonly peer: string;
  readonly peerPort: number;
  readonly localPort: number;

  constructor(peer: string, peerPort: number, localPort: number) {
    this.peer = peer;
    this.peerPort = peerPort;
    this.localPort = localPort;
  }

  onData(chunk: Buffer): void {
    if (this.skip > 0) {
      if (chunk.length <= this.skip) {
        this.skip -= chunk.length;
        this.bodyClock?.received(chunk.length);
        return;
      }
      this.bodyClock?.received(this.skip);
      chunk = chunk.subarray(this.skip);
      this.skip = 0;
    }
    if (this.skipUntilEnd) {
      this.bodyClock?.received(chunk.length);
      return;
    }
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

  /**
   * The parser dispatched a request: drop its head (and known-length body) from the buffer.
   * Returns how many body bytes had already arrived with the head.
   */
  consumeHead(contentLength: number, chunked: boolean): number {
    let buf = this.pending();
    let start = 0;
    while (start < buf.length && (buf[start] === 13 || buf[start] === 10)) start++;
    const end = buf.indexOf('\r\n\r\n', start);
    buf = end < 0 ? EMPTY : buf.subarray(end + 4);
    let bodyBytes = 0;
    if (chunked) {
      this.skipUntilEnd = true;
      bodyBytes = buf.length;
      buf = EMPTY;
    } else if (contentLength > 0) {
      if (buf.length >= contentLength) {
        bodyBytes = contentLength;
        buf = buf.subarray(contentLength);
      } else {
        bodyBytes = buf.length;
        this.skip = contentLength - buf.length;
        buf = EMPTY;
      }
    }
    this.chunks = buf.length ? [buf] : [];
    this.bytes = buf.length;
    // A pipelined request already in the buffer arrived now; otherwise wait for its first byte.
    this.startMs = buf.length ? Date.now() : undefined;
    if (buf.length) this.startHr = performance.now();
    return bodyBytes;
  }

  /** The body was read whole, or failed: stop its clock. */
  bodyEnded(): void {
    this.skipUntilEnd = false;
    this.reading = undefined;
    this.bodyClock?.stop();
    this.bodyClock = undefined;
  }
}

const kState = Symbol('shelfmark.connection');
type WithState = Socket & { [kState]?: ConnectionState };

/** An address as logged: IPv4-mapped IPv6 unwrapped, none → `-`. */
export const unmap = (a: string | undefined): string =>
  a === undefined ? '-' : a.startsWith('::ffff:') ? a.slice(7) : a;

export function attachState(socket: Socket): ConnectionState {
  // Reading remoteAddress now also makes Node keep it for the socket's lifetime.
  const st = new ConnectionState(unmap(socket.remoteAddress), socket.remotePort ?? 0, socket.localPort ?? 0);
  (socket as WithState)[kState] = st;
  socket.prependListener('data', (chunk: Buffer) => st.onData(chunk));
  socket.once('close', () => st.bodyClock?.stop());
  return st;
}

export function stateOf(socket: Socket): ConnectionState | undefined {
  return (socket as WithState)[kState];
}
