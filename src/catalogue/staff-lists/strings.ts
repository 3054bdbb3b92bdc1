// UI strings of the staff lists (German default, English), beside the feature like desk/strings.ts.
import type { Lang } from '../../http/resource/types.ts';

const de = {
  patronsTitle: 'Leserinnen und Leser',
  patronsResults: (q: string) => `Leserinnen und Leser zu „${q}“`,
  patronSearch: 'Name oder Ausweisnummer',
  search: 'Suchen',
  noPatrons: 'Keine Leserin und kein Leser gefunden.',
  name: 'Name',
  card: 'Ausweis',
  role: 'Rolle',
  roles: { member: 'Mitglied', staff: 'Personal' } as Record<'member' | 'staff', string>,
  locked: 'gesperrt',
  openLoans: 'Ausleihen',
  atDesk: 'An der Theke',
  noCard: 'ohne Ausweis',

  shelfTitle: 'Abholregal',
  shelfIntro: 'Exemplare, die für eine Vormerkung zurückgelegt sind.',
  noShelf: 'Im Abholregal liegt nichts.',
  work: 'Werk',
  copy: 'Exemplar',
  forWhom: 'Für',
  readySince: 'Bereit seit',
  until: 'Abholbar bis',
  expired: 'abgelaufen',
  expiredHint: 'Abgelaufen: das Exemplar geht an die nächste Vormerkung oder zurück ins Regal.',

  overdueTitle: 'Überfällige Ausleihen',
  overdueTitleDays: (n: number) => `Überfällige Ausleihen (mindestens ${n} Tage)`,
  minDays: 'Mindestens Tage überfällig',
  filter: 'Anzeigen',
  noOverdue: 'Keine Ausleihe ist so lange überfällig.',
  person: 'Person',
  due: 'Fällig am',
  borrowed: 'Ausgeliehen am',
  daysOverdue: 'Tage überfällig',
  print: 'Zum Drucken dieser Liste die Druckfunktion des Browsers verwenden; Kopf und Navigation fallen weg.',
};

const en: typeof de = {
  patronsTitle: 'Patrons',
  patronsResults: (q) => `Patrons matching “${q}”`,
  patronSearch: 'Name or card number',
  search: 'Search',
  noPatrons: 'No patron found.',
  name: 'Name',
  card: 'Card',
  role: 'Role',
  roles: { member: 'member', staff: 'staff' },
  locked: 'locked',
  openLoans: 'Loans',
  atDesk: 'At the desk',
  noCard: 'no card',

  shelfTitle: 'Hold shelf',
  shelfIntro: 'Copies kept for a hold.',
  noShelf: 'The hold shelf is empty.',
  work: 'Work',
  copy: 'Copy',
  forWhom: 'For',
  readySince: 'Ready since',
  until: 'Pick up by',
  expired: 'expired',
  expiredHint: 'Expired: the copy goes to the next hold or back to the shelf.',

  overdueTitle: 'Overdue loans',
  overdueTitleDays: (n) => `Overdue loans (at least ${n} days)`,
  minDays: 'At least days overdue',
  filter: 'Show',
  noOverdue: 'No loan is overdue that long.',
  person: 'Person',
  due: 'Due on',
  borrowed: 'Borrowed on',
  daysOverdue: 'Days overdue',
  print: "To print this list use the browser's print function; header and navigation are left out.",
};

export type StaffListStrings = typeof de;

export function staffListStrings(lang: Lang): StaffListStrings {
  return lang === 'en' ? en : de;
}
