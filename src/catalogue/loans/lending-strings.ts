// UI strings of the lending rules (German default, English), beside the feature like loans/strings.ts.
import type { Lang } from '../../http/resource/types.ts';

interface Open {
  readonly loans: number;
  readonly holds: number;
}

const deCount = ({ loans, holds }: Open): string =>
  [
    ...(loans > 0 ? [loans === 1 ? 'eine offene Ausleihe' : `${loans} offene Ausleihen`] : []),
    ...(holds > 0 ? [holds === 1 ? 'eine Vormerkung' : `${holds} Vormerkungen`] : []),
  ].join(' und ');

const enCount = ({ loans, holds }: Open): string =>
  [
    ...(loans > 0 ? [loans === 1 ? 'one open loan' : `${loans} open loans`] : []),
    ...(holds > 0 ? [holds === 1 ? 'one open hold' : `${holds} open holds`] : []),
  ].join(' and ');

const de = {
  openLending: deCount,
  cannotDelete: (open: Open) =>
    `Diese Person kann nicht gelöscht werden: Sie hat noch ${deCount(open)}. Erst wenn alles zurückgegeben und jede Vormerkung beendet ist, lässt sie sich löschen.`,
  cannotDeleteTitle: (name: string) => `„${name}“ kann nicht gelöscht werden`,
  toLoans: 'Zu den Ausleihen dieser Person',
  workHasLoans: (n: number) =>
    `${n === 1 ? 'Ein Exemplar ist' : `${n} Exemplare sind`} ausgeliehen. Erst wenn alle zurückgenommen sind, lässt sich das Werk löschen.`,
  toCopies: 'Zu den Exemplaren',
  back: 'Zurück',
  overdueBlocks: (days: number) =>
    `Eine Ausleihe ist seit mehr als ${days} Tagen überfällig. Bitte geben Sie sie zuerst zurück; bis dahin ist keine neue Ausleihe möglich.`,
  returnAtDesk:
    'Rückgaben nimmt das Personal an der Theke entgegen. Bitte bringen Sie das Exemplar in die Bibliothek.',
  notLendable: 'Dieses Exemplar ist Präsenzbestand und wird nicht ausgeliehen.',
  loanLimit: 'Die Höchstzahl an Ausleihen ist erreicht. Bitte geben Sie zuerst etwas zurück.',
  checkInTitle: 'Rückgabe',
  checkInIntro: 'Barcode des zurückgebrachten Exemplars scannen oder eingeben.',
  barcode: 'Barcode',
  checkInButton: 'Zurücknehmen',
  checkedIn: (titel: string) => `„${titel}“ ist zurückgenommen.`,
  stillLent: (titel: string) => `„${titel}“ ist noch ausgeliehen.`,
  neverLent: 'Dieses Exemplar war noch nie ausgeliehen.',
  copy: 'Exemplar',
  work: 'Werk',
  person: 'Ausgeliehen von',
  borrowed: 'Ausgeliehen am',
  due: 'Fällig am',
  returned: 'Zurückgegeben am',
  loan: 'Ausleihe',
  unknownBarcode: 'Kein Exemplar hat diesen Barcode.',
  barcodeRequired: 'Bitte einen Barcode angeben.',
  notOnLoan: 'Dieses Exemplar ist nicht ausgeliehen; es gibt nichts zurückzunehmen.',
  returnedLate: (days: number) => (days === 1 ? 'Einen Tag überfällig.' : `${days} Tage überfällig.`),
  toHoldShelf: (name: string) => `Ins Abholregal für ${name}.`,
  pickUpBy: 'Abholbar bis',
  backToShelf: 'Zurück ins Regal: niemand hat es vorgemerkt.',
};

const en: typeof de = {
  openLending: enCount,
  cannotDelete: (open) =>
    `This person cannot be deleted: they still have ${enCount(open)}. Once everything is returned and every hold has ended, they can be deleted.`,
  cannotDeleteTitle: (name) => `“${name}” cannot be deleted`,
  toLoans: "To this person's loans",
  workHasLoans: (n) =>
    `${n === 1 ? 'One copy is' : `${n} copies are`} on loan. Once all are checked in, the work can be deleted.`,
  toCopies: 'To the copies',
  back: 'Back',
  overdueBlocks: (days) =>
    `A loan is overdue by more than ${days} days. Please return it first; until then no new loan is possible.`,
  returnAtDesk: 'Returns are checked in at the desk. Please bring the copy to the library.',
  notLendable: 'This copy is for use in the library only and is not lent.',
  loanLimit: 'The most loans allowed are reached. Please return something first.',
  checkInTitle: 'Check-in',
  checkInIntro: 'Scan or type the barcode of the returned copy.',
  barcode: 'Barcode',
  checkInButton: 'Check in',
  checkedIn: (titel) => `“${titel}” is checked in.`,
  stillLent: (titel) => `“${titel}” is still on loan.`,
  neverLent: 'This copy has never been lent.',
  copy: 'Copy',
  work: 'Work',
  person: 'Borrowed by',
  borrowed: 'Borrowed on',
  due: 'Due on',
  returned: 'Returned on',
  loan: 'Loan',
  unknownBarcode: 'No copy has this barcode.',
  barcodeRequired: 'Please enter a barcode.',
  notOnLoan: 'This copy is not on loan; there is nothing to check in.',
  returnedLate: (days) => (days === 1 ? 'Overdue by one day.' : `Overdue by ${days} days.`),
  toHoldShelf: (name) => `To the hold shelf for ${name}.`,
  pickUpBy: 'To be picked up by',
  backToShelf: 'Back to the shelf: nobody holds it.',
};

export type LendingStrings = typeof de;

export function lendingStrings(lang: Lang): LendingStrings {
  return lang === 'en' ? en : de;
}
