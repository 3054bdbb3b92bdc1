// UI strings of the loan pages (German default, English by Accept-Language). Kept beside the
// feature rather than in i18n/ so the loans folder is self-contained.
import type { Lang } from '../../http/resource/types.ts';

const de = {
  listTitle: (name: string) => `Ausleihen von ${name}`,
  loanTitle: (titel: string) => `Ausleihe: ${titel}`,
  dueTitle: 'Fällige Ausleihen',
  work: 'Werk',
  copy: 'Exemplar (Signatur)',
  person: 'Person',
  borrowed: 'Ausgeliehen am',
  due: 'Fällig am',
  returned: 'Zurückgegeben am',
  overdue: 'überfällig',
  none: 'Zurzeit nichts ausgeliehen.',
  noneDue: 'Keine offenen Ausleihen.',
  returnButton: 'Zurückgeben',
  returnLabel: (titel: string) => `„${titel}“ zurückgeben`,
  borrowHeading: 'Ein Werk ausleihen',
  borrowLabel: 'Werk (Adresse oder Kurzname, z. B. faust)',
  borrowButton: 'Ausleihen',
  borrowHint: (days: number) => `Die Leihfrist beträgt ${days} Tage.`,
  backToList: 'Zur Liste der Ausleihen',
  actions: 'Aktion',
  renewals: 'Verlängert',
  renewButton: 'Verlängern',
  renewLimitReached: (max: number) =>
    `Nicht mehr verlängerbar: höchstens ${max === 1 ? 'einmal' : `${max}-mal`} je Ausleihe.`,
  renewLabel: (titel: string) => `„${titel}“ verlängern`,
  holdsLink: 'Vormerkungen',
};

const en: typeof de = {
  listTitle: (name) => `Loans of ${name}`,
  loanTitle: (titel) => `Loan: ${titel}`,
  dueTitle: 'Loans due',
  work: 'Work',
  copy: 'Copy (shelfmark)',
  person: 'Person',
  borrowed: 'Borrowed on',
  due: 'Due on',
  returned: 'Returned on',
  overdue: 'overdue',
  none: 'Nothing borrowed at the moment.',
  noneDue: 'No open loans.',
  returnButton: 'Return',
  returnLabel: (titel) => `Return “${titel}”`,
  borrowHeading: 'Borrow a work',
  borrowLabel: 'Work (address or short name, e.g. faust)',
  borrowButton: 'Borrow',
  borrowHint: (days) => `The loan period is ${days} days.`,
  backToList: 'Back to the list of loans',
  actions: 'Action',
  renewals: 'Renewed',
  renewButton: 'Renew',
  renewLimitReached: (max) => `No more renewals: at most ${max === 1 ? 'once' : `${max} times`} per loan.`,
  renewLabel: (titel) => `Renew “${titel}”`,
  holdsLink: 'Holds',
};

export type LoanStrings = typeof de;

export function loanStrings(lang: Lang): LoanStrings {
  return lang === 'en' ? en : de;
}

/** A date for people: 1. Mai 2024 / 1 May 2024 (UTC, like the stored timestamps). */
export function dateText(date: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'de-DE', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}
