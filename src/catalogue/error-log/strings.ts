// UI strings of the error-log page (German default, English by Accept-Language).
import type { Lang } from '../../http/resource/types.ts';

const de = {
  title: 'Fehlerprotokoll',
  intro: (n: number) => `Die letzten ${n} Einträge, neueste zuerst.`,
  time: 'Zeit',
  level: 'Stufe',
  module: 'Modul',
  process: 'Prozess',
  client: 'Client',
  message: 'Meldung',
  unparsed: 'Zeile in anderem Format',
  none: 'Keine Einträge.',
  count: 'Anzahl',
  minLevel: 'Ab Stufe',
  allLevels: 'alle',
  show: 'Anzeigen',
  live: 'Live verfolgen',
  liveOn: 'Neue Einträge erscheinen oben, sobald sie geschrieben werden.',
  stderr:
    'Das Fehlerprotokoll wird auf die Standardfehlerausgabe geschrieben (Pfad „-“) und kann hier nicht gelesen werden; es liegt beim Prozess- oder Container-Manager.',
  truncated: 'Der Suchbereich war erschöpft, bevor genug passende Einträge gefunden wurden.',
};

const en: typeof de = {
  title: 'Error log',
  intro: (n) => `The last ${n} entries, newest first.`,
  time: 'Time',
  level: 'Level',
  module: 'Module',
  process: 'Process',
  client: 'Client',
  message: 'Message',
  unparsed: 'line in another format',
  none: 'No entries.',
  count: 'Entries',
  minLevel: 'Minimum level',
  allLevels: 'all',
  show: 'Show',
  live: 'Follow live',
  liveOn: 'New entries appear at the top as they are written.',
  stderr:
    'The error log is written to standard error (path "-") and cannot be read here; the process or container manager keeps it.',
  truncated: 'The scan limit was reached before enough matching entries were found.',
};

export type ErrorLogStrings = typeof de;

export function errorLogStrings(lang: Lang): ErrorLogStrings {
  return lang === 'en' ? en : de;
}

/** The explanation XML and JSON carry when the log goes to stderr (not language-negotiated). */
export const STDERR_NOTE = en.stderr;
