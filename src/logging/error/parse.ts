// The inverse of format.ts: one Apache 2.4 error-log line (default ErrorLogFormat) back into
// its fields, for reading the log over HTTP. Pure. A line that does not have the shape is kept
// whole as `{ raw }` (Node's own crash output, a line cut at 8190 characters inside the prefix).
//
//   [Www Mmm dd hh:mm:ss.uuuuuu yyyy] [module:level] [pid P:tid T] file.c(1): (2)OS error: [client IP:PORT] message, referer: REF
//
// The message and the referer are kept AS WRITTEN, still escaped (`\n`, `\\`, `\xc3\xa9`): that
// is lossless, pure printable ASCII (a decoded control character would not even be legal XML
// 1.0) and exactly what `grep` and `tail -f` show. `messageLines` splits on the escaped `\n`
// for display; `unescapeErrorItem` decodes for clients that want the text.
import { MONTHS } from '../access/time.ts';
import { isLevel, type Level } from './format.ts';

export interface ParsedErrorEntry {
  /** Local wall-clock time with microseconds and the local UTC offset: `2026-11-02T02:32:29.467118+01:00`. */
  readonly time: string;
  /** Empty for a `[:error]` entry without a module. */
  readonly module: string;
  readonly level: Level;
  readonly pid: number;
  readonly tid?: number;
  /** `protocol.c(919)`: the source location Apache adds at debug level. */
  readonly source?: string;
  /** `(2)No such file or directory`: the OS error Apache puts before the client. */
  readonly osError?: string;
  /** `IP:PORT` of the request's connection. */
  readonly client?: string;
  /** As written (escaped). */
  readonly message: string;
  /** As written (escaped); only split off when a client is named and it holds no space. */
  readonly referer?: string;
}

export type ErrorLogLine = ParsedErrorEntry | { readonly raw: string };

const DAYS = 'Sun|Mon|Tue|Wed|Thu|Fri|Sat';
const PREFIX = new RegExp(
  `^\\[(?:${DAYS}) (\\w{3}) (\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,6}))? (\\d{4})\\] ` +
    `\\[([^:\\]\\s]*):([a-z0-9]+)\\] \\[pid (\\d+)(?::tid (\\d+))?\\] `,
);
const SOURCE = /^([^\s[\]()]+\(\d+\)): /;
const OS_ERROR = /^(\(-?\d+\)[^:[\]]*): /;
const CLIENT = /^\[client ([^\]\s]+)\] /;
const REFERER = /, referer: (\S+)$/;

const pad = (n: number, w = 2): string => String(Math.abs(n)).padStart(w, '0');

/** `2026-11-02T02:32:29.467118+01:00` for a local wall-clock time, or null when no such date. */
function isoLocal(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  us: string,
): string | null {
  const date = new Date(y, mo, d, h, mi, s);
  if (
    date.getFullYear() !== y ||
    date.getMonth() !== mo ||
    date.getDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    return null;
  }
  const offset = -date.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
  return `${y}-${pad(mo + 1)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}.${us.padEnd(6, '0')}${zone}`;
}

export function parseErrorLine(line: string): ErrorLogLine {
  const m = PREFIX.exec(line);
  if (!m) return { raw: line };
  const [prefix, mon, day, hh, mm, ss, us, year, module, level, pid, tid] = m;
  const month = MONTHS.indexOf(mon!);
  if (month < 0 || !isLevel(level!)) return { raw: line };
  const time = isoLocal(Number(year), month, Number(day), Number(hh), Number(mm), Number(ss), us ?? '');
  if (time === null) return { raw: line };
  let rest = line.slice(prefix.length);
  const take = (re: RegExp): string | undefined => {
    const found = re.exec(rest);
    if (!found) return undefined;
    rest = rest.slice(found[0].length);
    return found[1];
  };
  const source = take(SOURCE);
  const osError = take(OS_ERROR);
  const client = take(CLIENT);
  let referer: string | undefined;
  const ref = client === undefined ? null : REFERER.exec(rest);
  if (ref) {
    referer = ref[1];
    rest = rest.slice(0, ref.index);
  }
  return {
    time,
    module: module!,
    level: level!,
    pid: Number(pid),
    ...(tid !== undefined && { tid: Number(tid) }),
    ...(source !== undefined && { source }),
    ...(osError !== undefined && { osError }),
    ...(client !== undefined && { client }),
    message: rest,
    ...(referer !== undefined && { referer }),
  };
}

export const isRawLine = (line: ErrorLogLine): line is { readonly raw: string } => 'raw' in line;

const ESCAPE = /\\(x[0-9a-fA-F]{2}|[btnvr"\\])/g;
const SIMPLE: Record<string, number> = { b: 8, t: 9, n: 10, v: 11, r: 13, '"': 34, '\\': 92 };

/** Decodes Apache's escaping (bytes, then UTF-8; an invalid sequence becomes U+FFFD). */
export function unescapeErrorItem(text: string): string {
  const bytes: number[] = [];
  let last = 0;
  for (const m of text.matchAll(ESCAPE)) {
    for (let i = last; i < m.index; i++) bytes.push(text.charCodeAt(i) & 0xff);
    const code = m[1]!;
    bytes.push(code.length === 3 ? parseInt(code.slice(1), 16) : SIMPLE[code]!);
    last = m.index + m[0].length;
  }
  for (let i = last; i < text.length; i++) bytes.push(text.charCodeAt(i) & 0xff);
  return Buffer.from(bytes).toString('utf8');
}

/** Splits an escaped message at its escaped newlines (`\n`, not `\\n`), leaving the rest escaped. */
export function messageLines(message: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (let i = 0; i < message.length; i++) {
    const c = message[i]!;
    if (c === '\\' && i + 1 < message.length) {
      const next = message[i + 1]!;
      i++;
      if (next === 'n') {
        lines.push(current);
        current = '';
      } else current += c + next;
    } else current += c;
  }
  lines.push(current);
  return lines;
}
