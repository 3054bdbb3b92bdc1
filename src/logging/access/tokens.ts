// The LogFormat directives, each a function from an AccessRecord to the text Apache writes.
// Like morgan's token table: looked up once at compile time, never per request.
import { escapeLogItem } from '../escape.ts';
import { apacheTime } from './time.ts';
import type { AccessRecord } from './record.ts';

export type Token = (r: AccessRecord) => string;

const dash = (v: string | undefined): string => (v === undefined ? '-' : escapeLogItem(v));

/** Percent-decoding on bytes, as Apache does for r->uri (%U). Invalid escapes stay as they are. */
export function percentDecodeBinary(bin: string): string {
  if (!bin.includes('%')) return bin;
  return bin.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

function queryOf(target: string): string {
  const q = target.indexOf('?');
  return q < 0 ? '' : target.slice(q);
}

function timeToken(arg: string | undefined): Token {
  if (arg === undefined) return (r) => apacheTime(r.startMs);
  switch (arg) {
    case 'sec':
      return (r) => String(Math.floor(r.startMs / 1000));
    case 'msec':
      return (r) => String(Math.floor(r.startMs));
    case 'usec':
      return (r) => String(Math.floor(r.startMs) * 1000);
    case 'msec_frac':
      return (r) => String(Math.floor(r.startMs) % 1000).padStart(3, '0');
    case 'usec_frac':
      return (r) => String((Math.floor(r.startMs) % 1000) * 1000).padStart(6, '0');
    default:
      throw new Error(`LogFormat: %{${arg}}t (strftime formats) is not supported`);
  }
}

function durationToken(arg: string | undefined): Token {
  if (arg === undefined || arg === 's') return (r) => String(Math.floor(r.durationUs / 1e6));
  if (arg === 'ms') return (r) => String(Math.floor(r.durationUs / 1000));
  if (arg === 'us') return (r) => String(Math.floor(r.durationUs));
  throw new Error(`LogFormat: %{${arg}}T is not supported (use s, ms or us)`);
}

/** The token for directive `letter` with optional `{arg}`; throws for unknown directives. */
export function makeToken(letter: string, arg: string | undefined, finalStatus: boolean): Token {
  switch (letter) {
    case 'h':
      return (r) => r.remoteAddr;
    case 'a':
      return arg === 'c' ? (r) => r.peerAddr : (r) => r.remoteAddr;
    case 'l':
      return () => '-';
    case 'u':
      return (r) => (r.user === undefined ? '-' : r.user === '' ? '""' : escapeLogItem(r.user));
    case 't':
      return timeToken(arg);
    case 'r':
      return (r) => dash(r.requestLine);
    case 's':
      // %s and %>s are the same here: Shelfmark has no internal redirects.
      void finalStatus;
      return (r) => String(r.status);
    case 'b':
      return (r) => (r.bodyBytes === 0 ? '-' : String(r.bodyBytes));
    case 'B':
      return (r) => String(r.bodyBytes);
    case 'D':
      return (r) => String(Math.floor(r.durationUs));
    case 'T':
      return durationToken(arg);
    case 'm':
      return (r) => dash(r.method);
    case 'U':
      return (r) => (r.target === undefined ? '-' : escapeLogItem(percentDecodeBinary(pathOf(r.target))));
    case 'q':
      return (r) => (r.target === undefined ? '' : escapeLogItem(queryOf(r.target)));
    case 'H':
      return (r) => r.protocol;
    case 'p':
      return (r) => String(r.localPort);
    case 'P':
      return () => String(process.pid);
    case 'i': {
      if (!arg) throw new Error('LogFormat: %i needs a header name, e.g. %{User-Agent}i');
      const name = arg.toLowerCase();
      return (r) => dash(r.requestHeader(name));
    }
    case 'o': {
      if (!arg) throw new Error('LogFormat: %o needs a header name, e.g. %{Content-Type}o');
      const name = arg.toLowerCase();
      return (r) => dash(r.responseHeader(name));
    }
    default:
      throw new Error(`LogFormat: unknown directive %${arg === undefined ? '' : `{${arg}}`}${letter}`);
  }
}
