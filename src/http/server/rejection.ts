// What Apache answers (status, body, error-log entry) for a request Node's parser rejected.
import type { RawHead } from './raw-head.ts';

export interface Rejection {
  readonly status: number;
  /** Send this response (undefined: close without answering, like httpd on a read timeout). */
  readonly respond: boolean;
  /** Error-log entry at `info` (Apache's own texts), or at `debug` for Node-only reasons. */
  readonly entry?: { level: 'info' | 'debug'; module: string; message: string };
}

const TEXT: Record<number, [string, string]> = {
  400: ['Bad Request', 'Your browser sent a request that this server could not understand.<br />\n'],
  408: ['Request Timeout', 'Server timeout waiting for the HTTP request from the client.\n'],
  414: [
    'Request-URI Too Long',
    "The requested URL's length exceeds the capacity\nlimit for this server.<br />\n",
  ],
  501: ['Not Implemented', 'The requested method is not supported by this server.<br />\n'],
};

/** Apache's error document for `status` (ISO-8859-1 HTML, as httpd sends it). */
export function errorDocument(status: number): { reason: string; body: string } {
  const [reason, text] = TEXT[status] ?? ['Bad Request', ''];
  const body =
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n' +
    `<title>${status} ${reason}</title>\n</head><body>\n<h1>${reason}</h1>\n<p>${text}</p>\n</body></html>\n`;
  return { reason, body };
}

/** The raw HTTP response for a rejected request (connection closed afterwards). */
export function rawErrorResponse(status: number, head: boolean): Buffer {
  const { reason, body } = errorDocument(status);
  const headers =
    `HTTP/1.1 ${status} ${reason}\r\nDate: ${new Date().toUTCString()}\r\n` +
    `Content-Length: ${body.length}\r\nConnection: close\r\nContent-Type: text/html; charset=iso-8859-1\r\n\r\n`;
  return Buffer.from(head ? headers : headers + body, 'latin1');
}

export function decideRejection(code: string | undefined, head: RawHead, reason: string): Rejection {
  if (head.tooLong)
    return {
      status: 414,
      respond: true,
      entry: {
        level: 'info',
        module: 'core',
        message: `AH00565: request failed: client's request-line exceeds LimitRequestLine (longer than 8190)`,
      },
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      respond: false,
      entry: { level: 'info', module: 'reqtimeout', message: 'AH01382: Request header read timeout' },
    };
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 400,
      respond: true,
      entry: {
        level: 'info',
        module: 'core',
        message: 'AH00561: Request header exceeds LimitRequestFieldSize',
      },
    };
  if (code === 'HPE_INVALID_URL')
    return {
      status: 400,
      respond: true,
      entry: {
        level: 'info',
        module: 'core',
        message: `AH00126: Invalid URI in request ${head.requestLine ?? ''}`,
      },
    };
  // A well-formed line whose method Node does not know (e.g. `get`): httpd answers 501.
  if (
    code === 'HPE_INVALID_METHOD' &&
    head.wellFormed &&
    /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(head.method ?? '')
  )
    return {
      status: 501,
      respond: true,
      entry: {
        level: 'info',
        module: 'core',
        message: `AH00135: Invalid method in request ${head.requestLine}`,
      },
    };
  return {
    status: 400,
    respond: true,
    entry: { level: 'debug', module: 'core', message: `request failed: ${reason}` },
  };
}
