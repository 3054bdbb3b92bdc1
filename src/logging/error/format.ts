// Apache 2.4's default ErrorLogFormat:
// [Www Mmm dd hh:mm:ss.uuuuuu yyyy] [module:level] [pid P:tid T] [client IP:PORT] message, referer: REF
import { escapeErrorItem, utf8Binary } from '../escape.ts';
import { MONTHS } from '../access/time.ts';

export const LEVELS = ['emerg', 'alert', 'crit', 'error', 'warn', 'notice', 'info', 'debug'] as const;
export type Level = (typeof LEVELS)[number] | `trace${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8}`;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MAX_LINE = 8190;

export function levelRank(level: Level): number {
  const i = (LEVELS as readonly string[]).indexOf(level);
  return i >= 0 ? i : 7 + Number(level.slice(5));
}

export function isLevel(s: string): s is Level {
  return (LEVELS as readonly string[]).includes(s) || /^trace[1-8]$/.test(s);
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/** `Sun Nov 02 02:32:29.467118 2026`: local time, day zero-padded, microseconds, no offset. */
export function errorTime(epochUs: number): string {
  const ms = Math.floor(epochUs / 1000);
  const d = new Date(ms);
  const us = Math.floor(epochUs) % 1_000_000;
  return (
    `${DAYS[d.getDay()]} ${MONTHS[d.getMonth()]} ${pad(d.getDate(), 2)} ` +
    `${pad(d.getHours(), 2)}:${pad(d.getMinutes(), 2)}:${pad(d.getSeconds(), 2)}.${pad(us, 6)} ${d.getFullYear()}`
  );
}

/** Wall-clock microseconds (Date has only milliseconds). */
export function nowUs(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

export interface ErrorEntry {
  readonly module: string;
  readonly level: Level;
  /** A JavaScript string; newlines and control characters are escaped. */
  readonly message: string;
  /** The message is already a binary string (raw request bytes), not a JavaScript string. */
  readonly binary?: boolean | undefined;
  /** The OS or APR status before the client, as httpd writes it: `(22)Invalid argument`. */
  readonly osError?: string | undefined;
  /** `IP:PORT` of the request's connection, when the entry belongs to one. */
  readonly client?: string | undefined;
  /** The request's Referer as a binary string; appended when non-empty. */
  readonly referer?: string | undefined;
  readonly pid?: number;
  readonly epochUs?: number;
}

export function formatErrorLine(e: ErrorEntry): string {
  const pid = e.pid ?? process.pid;
  let line = `[${errorTime(e.epochUs ?? nowUs())}] [${e.module}:${e.level}] [pid ${pid}:tid ${pid}] `;
  if (e.osError) line += `${e.osError}: `;
  if (e.client) line += `[client ${e.client}] `;
  line += escapeErrorItem(e.binary ? e.message : utf8Binary(e.message));
  if (e.referer) line += ', referer: ' + escapeErrorItem(e.referer);
  return line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line;
}
