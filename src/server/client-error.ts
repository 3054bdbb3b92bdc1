// The 'clientError' path: Node's parser rejected what a connection sent (or the connection
// failed or timed out). The request is answered (or not) and logged as httpd would, from the
// raw bytes the connection kept, with exactly one access-log line.
import type { Socket } from 'node:net';
import { rawHeaderValue, type AccessLog } from '../logging/access/index.ts';
import type { ErrorLog } from '../logging/error/index.ts';
import { rejectedRecord } from './access-record.ts';
import { bodyRejection, failBody } from './body-failure.ts';
import { stateOf } from './connection.ts';
import { parseRawHead } from './raw-head.ts';
import { decideRejection, entriesOf, rawErrorResponse } from './rejection.ts';
import { rejectedRefusal } from './strict-refusal.ts';

export type ClientErrorHandler = (
  err: NodeJS.ErrnoException & { rawPacket?: Buffer },
  socket: Socket,
) => void;

export function clientErrorHandler(
  accessLog: AccessLog | undefined,
  errorLog: ErrorLog | undefined,
): ClientErrorHandler {
  return (err, socket) => {
    const st = stateOf(socket);
    if (!st || st.rejected) return void socket.destroy();
    // The connection failed while a dispatched request's body was read: that request's own
    // line reports it when its response closes.
    if (st.reading) return failBody(st, socket, st.reading, bodyRejection(err.code, st.reading), errorLog);
    const bytes = st.bytes ? st.pending() : err.rawPacket;
    const head = parseRawHead(bytes);
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // The client half-closed: it can still read httpd's answer.
    const halfClosed = err.code === 'HPE_INVALID_EOF_STATE';
    const reset = err.code === 'ECONNRESET' || err.code === 'EPIPE' || halfClosed;
    // Node's parser refuses at the first bad byte; httpd reads up to the line's end before it
    // judges. Until a LF (or too long a line) arrives, wait: the client's close then logs nothing,
    // the request-line timeout a 408 — as httpd does for a TLS handshake sent to the plain port
    // without a LF. Node reports each further chunk to this handler again.
    if (!head.lineComplete && !timeout && !reset) return;
    st.rejected = true;
    // Nothing to log: a reset before a complete line, or an idle kept-alive connection timing out.
    if ((reset && !head.lineComplete) || (timeout && !st.bytes && st.served > 0))
      return void socket.destroy();
    // httpd's own refusal of these bytes when it has one (strict/), else the one for Node's code.
    const strict = timeout || (reset && !halfClosed) ? undefined : rejectedRefusal(bytes, halfClosed);
    const rejection = strict ?? decideRejection(err.code, head, `${err.code ?? ''} ${err.message}`);
    const answers = strict ? socket.writable : !reset && socket.writable;
    const status = reset && !strict ? 400 : rejection.status;
    const isHead = (rejection.seen ? rejection.seen.method : head.method) === 'HEAD';
    let bodyBytes = 0;
    if (rejection.respond && answers) {
      bodyBytes = isHead ? 0 : rejection.document.length;
      socket.end(rawErrorResponse(rejection, isHead));
    } else socket.destroy();
    const referer = rawHeaderValue(rejection.seen?.headers ?? head.headers, 'referer') || undefined;
    for (const entry of entriesOf(rejection))
      if (errorLog?.enabled(entry.level))
        errorLog.log(entry.level, entry.module, entry.message, {
          client: `${st.peer}:${st.peerPort}`,
          referer,
          binary: true,
          osError: entry.osError,
        });
    accessLog?.log(
      rejectedRecord({
        state: st,
        head,
        status,
        bodyBytes,
        noLine: timeout && !head.lineComplete,
        seen: rejection.seen,
        noUser: rejection.beforeAuth,
      }),
    );
  };
}
