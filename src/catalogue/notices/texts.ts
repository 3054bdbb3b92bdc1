// What a notice says, in the patron's language (ADR 0085). Plain text: the mail carries no HTML,
// so nothing in it can be markup; titles and names are written as they are.
import { dateText } from '../loans/index.ts';
import type { NoticeKind } from '../tables.ts';

export type Lang = 'de' | 'en';

export interface NoticeFacts {
  readonly name: string;
  readonly titel: string;
  /** The loan's due date, or the hold's pickup deadline. */
  readonly date: Date;
  /** Where the patron sees it (absolute URL). */
  readonly url: string;
}

interface Text {
  readonly subject: string;
  readonly lines: readonly string[];
}

const de: Record<Exclude<NoticeKind, 'password-reset'>, (f: NoticeFacts) => Text> = {
  'due-soon': (f) => ({
    subject: `Leihfrist endet bald: „${f.titel}“`,
    lines: [
      `die Leihfrist von „${f.titel}“ endet am ${dateText(f.date, 'de')}.`,
      'Bitte geben Sie das Werk bis dahin zurück oder verlängern Sie die Ausleihe:',
      f.url,
    ],
  }),
  'overdue-1': (f) => ({
    subject: `Erinnerung: „${f.titel}“ ist überfällig`,
    lines: [
      `die Leihfrist von „${f.titel}“ ist am ${dateText(f.date, 'de')} abgelaufen.`,
      'Bitte geben Sie das Werk bald zurück:',
      f.url,
    ],
  }),
  'overdue-2': (f) => ({
    subject: `Zweite Erinnerung: „${f.titel}“ ist überfällig`,
    lines: [
      `„${f.titel}“ ist seit dem ${dateText(f.date, 'de')} überfällig.`,
      'Solange es nicht zurück ist, können Sie nichts Neues ausleihen. Bitte geben Sie es zurück:',
      f.url,
    ],
  }),
  'hold-ready': (f) => ({
    subject: `Abholbereit: „${f.titel}“`,
    lines: [
      `das von Ihnen vorgemerkte Werk „${f.titel}“ liegt für Sie bereit.`,
      `Bitte holen Sie es bis zum ${dateText(f.date, 'de')} ab; danach geht es an die nächste Person.`,
      f.url,
    ],
  }),
};

const en: typeof de = {
  'due-soon': (f) => ({
    subject: `Due soon: “${f.titel}”`,
    lines: [
      `“${f.titel}” is due on ${dateText(f.date, 'en')}.`,
      'Please return it by then or renew the loan:',
      f.url,
    ],
  }),
  'overdue-1': (f) => ({
    subject: `Reminder: “${f.titel}” is overdue`,
    lines: [`“${f.titel}” was due on ${dateText(f.date, 'en')}.`, 'Please return it soon:', f.url],
  }),
  'overdue-2': (f) => ({
    subject: `Second reminder: “${f.titel}” is overdue`,
    lines: [
      `“${f.titel}” has been overdue since ${dateText(f.date, 'en')}.`,
      'Until it is back you cannot borrow anything new. Please return it:',
      f.url,
    ],
  }),
  'hold-ready': (f) => ({
    subject: `Ready for pickup: “${f.titel}”`,
    lines: [
      `“${f.titel}”, which you placed a hold on, is waiting for you.`,
      `Please pick it up by ${dateText(f.date, 'en')}; after that it goes to the next in line.`,
      f.url,
    ],
  }),
};

const greeting = (lang: Lang, name: string) => (lang === 'de' ? `Guten Tag ${name},` : `Dear ${name},`);
const closing = (lang: Lang) =>
  lang === 'de'
    ? [
        'Freundliche Grüße',
        'Ihre Bibliothek',
        '',
        'Benachrichtigungen abbestellen: in Ihrem Konto unter Einstellungen.',
      ]
    : ['Kind regards', 'Your library', '', 'To stop these notices: Settings in your account.'];

/** Subject and body of a loan or hold notice. */
export function noticeText(
  kind: Exclude<NoticeKind, 'password-reset'>,
  lang: Lang,
  facts: NoticeFacts,
): { subject: string; body: string } {
  const text = (lang === 'de' ? de : en)[kind](facts);
  return {
    subject: text.subject,
    body: [greeting(lang, facts.name), '', ...text.lines, '', ...closing(lang), ''].join('\n'),
  };
}

/** Subject and body of a password reset mail (ADR 0093); the link works `minutes` long. */
export function resetText(
  lang: Lang,
  name: string,
  url: string,
  minutes: number,
  username: string,
): { subject: string; body: string } {
  const lines =
    lang === 'de'
      ? [
          `Sie (oder jemand anderes) haben ein neues Passwort für Ihr Konto „${username}“ angefordert. Mit diesem Link legen Sie es fest:`,
          url,
          `Der Link gilt ${minutes} Minuten und nur einmal. Wenn Sie nichts angefordert haben, ignorieren Sie diese Nachricht.`,
        ]
      : [
          `You (or someone else) asked for a new password for your account “${username}”. Set it with this link:`,
          url,
          `The link works once, for ${minutes} minutes. If you did not ask for it, ignore this message.`,
        ];
  return {
    subject: lang === 'de' ? 'Neues Passwort festlegen' : 'Set a new password',
    body: [greeting(lang, name), '', ...lines, '', ...closing(lang).slice(0, 2), ''].join('\n'),
  };
}
