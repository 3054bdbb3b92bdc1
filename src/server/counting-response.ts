// A ServerResponse that counts the body bytes handed to it (for %b / %B), whether the body is
// sent with end(payload) or streamed with write(); passed to http.createServer as its
// ServerResponse class so no per-request wrapping is needed.
import { ServerResponse, type IncomingMessage } from 'node:http';

export interface RequestLogState {
  /** %h / %a, %{c}a and our port, captured when the request arrived (the socket may be gone later). */
  remoteAddr: string;
  peerAddr: string;
  localPort: number;
  startMs: number;
  startHr: number;
  requestLine: string | undefined;
  method: string | undefined;
  target: string | undefined;
  protocol: string;
  /** Set when the connection failed while the request body was read. */
  statusOverride: number | undefined;
  /** The error document's length when the server answered that failure itself. */
  bodyBytesOverride: number | undefined;
  /** False when httpd would have refused before reading the headers (414). */
  headersRead: boolean;
  /** httpd refused part-way through the head: the fields it had read (%{Name}i reads these). */
  headerTable?: readonly string[] | undefined;
  /** httpd refused before authentication: %u is `-`. */
  noUser?: boolean | undefined;
}

function byteLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string')
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}

/** The headers argument of writeHead (an object, `[name, value, …]` or `[[name, value], …]`). */
function headerMap(headers: unknown): Map<string, string> {
  const map = new Map<string, string>();
  const add = (name: unknown, value: unknown) => {
    const key = String(name).toLowerCase();
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    const prior = map.get(key);
    map.set(key, prior === undefined ? text : `${prior}, ${text}`);
  };
  if (Array.isArray(headers)) {
    if (headers.every((h) => Array.isArray(h))) for (const [n, v] of headers as unknown[][]) add(n, v);
    else for (let i = 0; i + 1 < headers.length; i += 2) add(headers[i], headers[i + 1]);
  } else if (typeof headers === 'object' && headers !== null) {
    for (const [n, v] of Object.entries(headers)) if (v !== undefined) add(n, v);
  }
  return map;
}

export class CountingResponse<Req extends IncomingMessage = IncomingMessage> extends ServerResponse<Req> {
  bodyBytes = 0;
  logState: RequestLogState | undefined = undefined;
  /**
   * Headers handed to writeHead directly (Fastify does so), which getHeader() does not see: kept
   * as given and read into a map only when a log format asks for one (%{Name}o), as most don't.
   */
  #headHeaders: unknown = undefined;
  #headMap: Map<string, string> | undefined = undefined;

  /** A response header as sent (for %{Name}o), whether set with setHeader or given to writeHead. */
  sentHeader(name: string): string | undefined {
    const v = this.getHeader(name);
    if (v !== undefined) return Array.isArray(v) ? v.join(', ') : String(v);
    if (this.#headHeaders === undefined) return undefined;
    this.#headMap ??= headerMap(this.#headHeaders);
    return this.#headMap.get(name.toLowerCase());
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override writeHead(...args: any[]): this {
    const headers = args.length > 1 ? args[args.length - 1] : undefined;
    if (typeof headers === 'object' && headers !== null) {
      this.#headHeaders = headers;
      this.#headMap = undefined;
    }
    return (super.writeHead as (...a: unknown[]) => this)(...args);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override write(chunk: any, ...rest: any[]): boolean {
    this.bodyBytes += byteLength(chunk, rest[0]);
    return (super.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }

  /** The end is held back (ending's answer), so a second end() meanwhile does nothing. */
  #held = false;

  /**
   * Called once the response is complete, before its last bytes go to the socket: the access
   * line is written here, so a client can never hold an answer whose line a kill -9 lost. A log
   * that writes at the end of the event-loop turn answers with how to hold the end until then.
   */
  protected ending(): ((end: () => void) => void) | undefined {
    return undefined;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override end(...args: any[]): this {
    if (this.#held) return this;
    if (!this.writableEnded) {
      this.bodyBytes += byteLength(args[0], args[1]);
      const hold = this.ending();
      if (hold) {
        this.#held = true;
        hold(() => (super.end as (...a: unknown[]) => this)(...args));
        return this;
      }
    }
    return (super.end as (...a: unknown[]) => this)(...args);
  }
}
