// UI strings of the desk (German default, English), beside the feature like loans/lending-strings.ts.
import type { Lang } from '../../http/resource/types.ts';

const de = {
  title: 'Theke: Ausleihe',
  patronTitle: (name: string) => `Ausleihe an ${name}`,
  cardIntro: 'Ausweis scannen, Ausweisnummer eingeben oder nach dem Namen suchen.',
  cardLabel: 'Ausweisnummer oder Name',
  cardButton: 'Suchen',
  matchesTitle: 'Gefundene Personen',
  noMatch: (q: string) => `Kein Ausweis und kein Name passt zu „${q}“.`,
  cardRequired: 'Bitte eine Ausweisnummer oder einen Namen angeben.',
  unknownCard: 'Kein Konto hat diese Ausweisnummer.',
  cardNumber: 'Ausweis',
  barcodeIntro:
    'Barcode des Exemplars scannen oder eingeben; nach jeder Ausleihe ist das Feld wieder bereit.',
  barcode: 'Barcode',
  lendButton: 'Ausleihen',
  lent: (titel: string, barcode: string) => `„${titel}“ (${barcode}) ist ausgeliehen.`,
  due: 'Fällig am',
  loansTitle: 'Ausleihen dieser Person',
  noLoans: 'Keine offenen Ausleihen.',
  work: 'Werk',
  copy: 'Exemplar',
  otherPatron: 'Andere Person',
  allLoans: 'Alle Ausleihen dieser Person',
  account: 'Konto',
  lendToCard: 'Ausleihen an (Ausweisnummer)',
  listsLabel: 'Listen der Theke',
  patronsList: 'Leserinnen und Leser',
  holdShelfList: 'Abholregal',
  overdueList: 'Überfällige Ausleihen (zum Drucken)',
  noticesList: 'Benachrichtigungen',
};

const en: typeof de = {
  title: 'Desk: lending',
  patronTitle: (name) => `Lending to ${name}`,
  cardIntro: 'Scan the library card, type its number or search by name.',
  cardLabel: 'Card number or name',
  cardButton: 'Search',
  matchesTitle: 'Persons found',
  noMatch: (q) => `No card and no name matches “${q}”.`,
  cardRequired: 'Please enter a card number or a name.',
  unknownCard: 'No account has this card number.',
  cardNumber: 'Card',
  barcodeIntro: "Scan or type the copy's barcode; after each loan the field is ready again.",
  barcode: 'Barcode',
  lendButton: 'Lend',
  lent: (titel, barcode) => `“${titel}” (${barcode}) is lent.`,
  due: 'Due on',
  loansTitle: "This person's loans",
  noLoans: 'No open loans.',
  work: 'Work',
  copy: 'Copy',
  otherPatron: 'Another person',
  allLoans: "All of this person's loans",
  account: 'Account',
  lendToCard: 'Lend to (card number)',
  listsLabel: 'Desk lists',
  patronsList: 'Patrons',
  holdShelfList: 'Hold shelf',
  overdueList: 'Overdue loans (to print)',
  noticesList: 'Notices',
};

export type DeskStrings = typeof de;

export function deskStrings(lang: Lang): DeskStrings {
  return lang === 'en' ? en : de;
}
