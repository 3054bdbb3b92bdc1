// UI strings of the notice lists (German default, English); the notices' own texts are texts.ts.
import type { Lang } from '../../http/resource/types.ts';
import type { NoticeKind } from '../tables.ts';
import type { StatusName } from './status.ts';

const de = {
  allTitle: 'Benachrichtigungen',
  personTitle: (name: string) => `Benachrichtigungen an ${name}`,
  none: 'Keine Benachrichtigungen.',
  status: 'Status',
  allStates: 'alle',
  filter: 'Anzeigen',
  kind: 'Art',
  subject: 'Betreff',
  to: 'An',
  person: 'Person',
  planned: 'Geplant',
  sent: 'Gesendet',
  attempts: 'Versuche',
  nextAttempt: 'nächster Versuch',
  error: 'Fehler',
  about: 'Betrifft',
  text: 'Text',
  hiddenText: 'Der Text enthält einen Link zum Zurücksetzen des Passworts und wird nicht gezeigt.',
  kinds: {
    'due-soon': 'Leihfrist endet bald',
    'overdue-1': 'Erste Erinnerung',
    'overdue-2': 'Zweite Erinnerung',
    'hold-ready': 'Abholbereit',
    'password-reset': 'Passwort zurücksetzen',
  } as Record<NoticeKind, string>,
  states: {
    geplant: 'geplant',
    gesendet: 'gesendet',
    fehlgeschlagen: 'fehlgeschlagen',
    entfallen: 'entfallen',
  } as Record<StatusName, string>,
};

const en: typeof de = {
  allTitle: 'Notices',
  personTitle: (name) => `Notices to ${name}`,
  none: 'No notices.',
  status: 'Status',
  allStates: 'all',
  filter: 'Show',
  kind: 'Kind',
  subject: 'Subject',
  to: 'To',
  person: 'Person',
  planned: 'Planned',
  sent: 'Sent',
  attempts: 'Attempts',
  nextAttempt: 'next attempt',
  error: 'Error',
  about: 'About',
  text: 'Text',
  hiddenText: 'The text holds a password reset link and is not shown.',
  kinds: {
    'due-soon': 'Due soon',
    'overdue-1': 'First reminder',
    'overdue-2': 'Second reminder',
    'hold-ready': 'Ready for pickup',
    'password-reset': 'Password reset',
  },
  states: { geplant: 'planned', gesendet: 'sent', fehlgeschlagen: 'failed', entfallen: 'obsolete' },
};

export type NoticeListStrings = typeof de;

export function noticeListStrings(lang: Lang): NoticeListStrings {
  return lang === 'en' ? en : de;
}
