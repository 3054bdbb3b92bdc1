// mod_status's numbers for the whole server (every worker, and the ones gone since the start)
// and its machine-readable `?auto` text, key for key as Apache httpd 2.4's prefork MPM writes
// it (docs/decisions/0015-server-status.md), so the tools that read Apache's — Prometheus'
// apache_exporter, collectd, Telegraf, Metricbeat — read Shelfmark's.
import type { SlotSnapshot } from './scoreboard.ts';

/** Apache's scoreboard characters: starting, waiting, sending reply, gracefully finishing, open. */
export type SlotState = 'S' | '_' | 'W' | 'G' | '.';

export interface StatusSlot {
  readonly state: SlotState;
  /** The worker's last report (none yet while it starts). */
  readonly snapshot?: SlotSnapshot | undefined;
}

export interface Totals {
  readonly accesses: number;
  readonly bytes: number;
  readonly durationMs: number;
  readonly cpuUser: number;
  readonly cpuSystem: number;
}

export interface ServerStatus {
  readonly serverVersion: string;
  /** When the server started (the supervisor, or the one process of --workers 0). */
  readonly startMs: number;
  /** The last graceful restart, else the start. */
  readonly restartMs: number;
  readonly nowMs: number;
  /** Graceful restarts so far (httpd's MPM generation). */
  readonly generation: number;
  readonly slots: readonly StatusSlot[];
  /** What processes that have exited had counted. */
  readonly gone: Totals;
  readonly load: readonly [number, number, number];
}

export interface Summary extends Totals {
  readonly uptime: number;
  readonly kBytes: number;
  readonly busy: number;
  readonly graceful: number;
  readonly idle: number;
  readonly scoreboard: string;
}

export function summarize(status: ServerStatus): Summary {
  let { accesses, bytes, durationMs, cpuUser, cpuSystem } = status.gone;
  for (const { snapshot: s } of status.slots) {
    if (!s) continue;
    accesses += s.accesses;
    bytes += s.bytes;
    durationMs += s.durationMs;
    cpuUser += s.cpuUser;
    cpuSystem += s.cpuSystem;
  }
  const scoreboard = status.slots.map((s) => s.state).join('');
  const countOf = (c: SlotState) => status.slots.filter((s) => s.state === c).length;
  return {
    accesses,
    bytes,
    durationMs,
    cpuUser,
    cpuSystem,
    uptime: Math.max(0, Math.floor((status.nowMs - status.startMs) / 1000)),
    kBytes: Math.floor(bytes / 1024),
    busy: countOf('W'),
    graceful: countOf('G'),
    idle: countOf('_'),
    scoreboard,
  };
}

/**
 * C's `%g` as APR writes it: six significant digits, trailing zeros dropped, no leading zero
 * before the point (`.0813`), exponent form outside 1e-4 … 1e6 (`1.5e+6`).
 */
export function aprG(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const sign = value < 0 ? '-' : '';
  const [mantissa, exp] = Math.abs(value).toExponential(5).split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const decpt = Number(exp) + 1;
  const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (decpt < -3 || decpt > 6) {
    const e = decpt - 1;
    return `${sign}${trim(digits[0] + '.' + digits.slice(1))}e${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  const fixed =
    decpt <= 0
      ? '.' + '0'.repeat(-decpt) + digits
      : digits.slice(0, decpt).padEnd(decpt, '0') + '.' + digits.slice(decpt);
  return sign + trim(fixed);
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** httpd's `%A, %d-%b-%Y %H:%M:%S %Z` in local time: `Sunday, 22-Nov-2026 14:41:47 UTC`. */
export function statusTime(ms: number): string {
  const d = new Date(ms);
  const zone =
    new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  return (
    `${DAYS[d.getDay()]}, ${two(d.getDate())}-${MONTHS[d.getMonth()]}-${d.getFullYear()} ` +
    `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${zone}`
  );
}

/** mod_status's show_time: `2 days 23 hours 7 minutes 8 seconds`, zero parts left out. */
export function uptimeText(seconds: number): string {
  const parts: [number, string][] = [
    [Math.floor(seconds / 86400), 'day'],
    [Math.floor(seconds / 3600) % 24, 'hour'],
    [Math.floor(seconds / 60) % 60, 'minute'],
    [seconds % 60, 'second'],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`)
    .join(' ');
}

/** The `?auto` body; `host` is the first line, the host name the client asked for. */
export function autoText(status: ServerStatus, host: string): string {
  const s = summarize(status);
  const up = s.uptime;
  const cpu = s.cpuUser + s.cpuSystem;
  const lines = [
    host,
    `ServerVersion: ${status.serverVersion}`,
    'ServerMPM: prefork',
    `CurrentTime: ${statusTime(status.nowMs)}`,
    `RestartTime: ${statusTime(status.restartMs)}`,
    `ParentServerConfigGeneration: ${status.generation + 1}`,
    `ParentServerMPMGeneration: ${status.generation}`,
    `ServerUptimeSeconds: ${up}`,
    `ServerUptime:${up > 0 ? ' ' + uptimeText(up) : ''}`,
    ...status.load.map((l, i) => `Load${[1, 5, 15][i]}: ${l.toFixed(2)}`),
    `Total Accesses: ${s.accesses}`,
    `Total kBytes: ${s.kBytes}`,
    `Total Duration: ${s.durationMs}`,
    `CPUUser: ${aprG(s.cpuUser)}`,
    `CPUSystem: ${aprG(s.cpuSystem)}`,
    'CPUChildrenUser: 0',
    'CPUChildrenSystem: 0',
    ...(cpu > 0 && up > 0 ? [`CPULoad: ${aprG((cpu / up) * 100)}`] : []),
    `Uptime: ${up}`,
    ...(up > 0
      ? [`ReqPerSec: ${aprG(s.accesses / up)}`, `BytesPerSec: ${aprG((1024 * s.kBytes) / up)}`]
      : []),
    ...(s.accesses > 0
      ? [
          `BytesPerReq: ${aprG((1024 * s.kBytes) / s.accesses)}`,
          `DurationPerReq: ${aprG(s.durationMs / s.accesses)}`,
        ]
      : []),
    `BusyWorkers: ${s.busy}`,
    `GracefulWorkers: ${s.graceful}`,
    `IdleWorkers: ${s.idle}`,
    `Scoreboard: ${s.scoreboard}`,
  ];
  return lines.join('\n') + '\n';
}
