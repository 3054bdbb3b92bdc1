// UI strings of the server-status page (German default, English by Accept-Language).
import type { Lang } from '../../http/resource/types.ts';

const de = {
  title: 'Server-Status',
  version: 'Server-Version',
  now: 'Jetzt',
  restart: 'Neustart',
  generation: 'Generation (sanfte Neustarts)',
  uptime: 'Laufzeit',
  load: 'Systemlast',
  accesses: 'Anfragen',
  traffic: 'Übertragen (Antwortinhalte)',
  duration: 'Bearbeitungszeit gesamt',
  cpu: 'CPU (Nutzer / System)',
  rates: 'Anfragen/s · Bytes/s · Bytes/Anfrage · ms/Anfrage',
  workers: (busy: number, graceful: number, idle: number) =>
    `${busy} Worker bearbeiten gerade Anfragen, ${graceful} beenden sich sanft, ${idle} warten`,
  scoreboard: 'Scoreboard',
  key: '„_“ wartet auf Verbindungen, „W“ sendet Antworten, „S“ startet, „G“ beendet sich sanft, „.“ freier Platz',
  slot: 'Platz',
  pid: 'PID',
  mode: 'Modus',
  kbytes: 'kB',
  durationMs: 'Dauer (ms)',
  machine: 'Maschinenlesbar (wie Apaches mod_status):',
};

const en: typeof de = {
  title: 'Server status',
  version: 'Server version',
  now: 'Current time',
  restart: 'Restart time',
  generation: 'Generation (graceful restarts)',
  uptime: 'Uptime',
  load: 'Load average',
  accesses: 'Requests',
  traffic: 'Traffic (response bodies)',
  duration: 'Total duration',
  cpu: 'CPU (user / system)',
  rates: 'requests/s · bytes/s · bytes/request · ms/request',
  workers: (busy, graceful, idle) =>
    `${busy} workers processing requests, ${graceful} gracefully finishing, ${idle} idle`,
  scoreboard: 'Scoreboard',
  key: '"_" waiting for connection, "W" sending reply, "S" starting up, "G" gracefully finishing, "." open slot',
  slot: 'Slot',
  pid: 'PID',
  mode: 'Mode',
  kbytes: 'kB',
  durationMs: 'Duration (ms)',
  machine: 'Machine-readable (as Apache mod_status):',
};

export const serverStatusStrings = (lang: Lang): typeof de => (lang === 'en' ? en : de);
