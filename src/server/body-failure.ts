// A request was handed to the application, then its body failed: the client closed or reset
// the connection, sent a malformed chunk or a Transfer-Encoding httpd does not know, or sent it
// too slowly. httpd's handler would see the read fail and answer 400 (408 for a timeout): the
// answer goes out when the connection can still carry it, the request's own access-log line
// reports that status with the real client, the error log gets httpd's entry for it (no stack),
// and the application's body reader sees a client error rather than Node's bare "aborted".
import type { Socket } from 'node:net';
import { rawHeaderValue } from '../logging/access/index.ts';
import type { ErrorLog } from '../logging/error/index.ts';
import type { ConnectionState } from './connection.ts';
import type { CountingResponse } from './counting-response.ts';
import { rawErrorResponse, REFUSALS, type Rejection } from './rejection.ts';

/** httpd's refusal for a body that failed with Node's `code` while it was read. */
export function bodyRejection(code: string | undefined, res: CountingResponse): Rejection {
  const req = res.req;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return REFUSALS.bodyReadTimeout();
  if (code === 'HPE_INVALID_TRANSFER_ENCODING')
    return REFUSALS.unknownTransferEncoding(
      rawHeaderValue(req.rawHeaders, 'transfer-encoding') ?? '',
      res.logState?.target ?? '',
    );
  // The peer went away: nothing can be answered.
  if (code === 'ECONNRESET' || code === 'EPIPE') return REFUSALS.bodyIncomplete(false);
  // The client closed its side before the whole body arrived (it may still read an answer).
  if (code === 'HPE_INVALID_EOF_STATE') return REFUSALS.bodyIncomplete(true);
  return REFUSALS.badChunk();
}

/** An error the application's body reader receives: a client error (statusCode < 500). */
function clientError(rejection: Rejection): Error {
  const message =
    rejection.status === 408 ? 'Request body read timeout' : 'The request body could not be read';
  return Object.assign(new Error(message), { statusCode: rejection.status, expose: true });
}

export function failBody(
  st: ConnectionState,
  socket: Socket,
  res: CountingResponse,
  rejection: Rejection,
  errorLog: ErrorLog | undefined,
): void {
  st.rejected = true;
  st.bodyEnded();
  const req = res.req;
  const ls = res.logState;
  const { entry } = rejection;
  if (entry && errorLog?.enabled(entry.level))
    errorLog.log(entry.level, entry.module, entry.message, {
      client: `${st.peer}:${st.peerPort}`,
      referer: rawHeaderValue(req.rawHeaders, 'referer') || undefined,
      binary: true,
      osError: entry.osError,
    });
  const answered = !res.headersSent;
  if (answered && ls) {
    ls.statusOverride = rejection.status;
    // What the application may still write goes nowhere: only our own answer counts for %b.
    ls.bodyBytesOverride = 0;
  }
  // Node's abortIncoming destroys the request with a bare "aborted" when the socket closes;
  // destroying it first with a client error keeps that out of the error log.
  const destroyRequest = () => void (req.destroyed || req.destroy(clientError(rejection)));
  socket.prependOnceListener('close', destroyRequest);
  if (answered && rejection.respond && socket.writable) {
    const isHead = req.method === 'HEAD';
    if (ls) ls.bodyBytesOverride = isHead ? 0 : rejection.document.length;
    socket.end(rawErrorResponse(rejection, isHead), () => {
      destroyRequest();
      socket.destroy();
    });
  } else {
    destroyRequest();
    socket.destroy();
  }
}
