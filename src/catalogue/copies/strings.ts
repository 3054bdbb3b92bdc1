// UI strings of the copy pages (German default, English by Accept-Language).
import type { Lang } from '../../http/resource/types.ts';

const de = {
  listTitle: (titel: string) => `Exemplare: ${titel}`,
  copyTitle: (signatur: string, titel: string) => `Exemplar ${signatur} – ${titel}`,
  heading: 'Exemplare',
  work: 'Werk',
  nummer: 'Nr.',
  signatur: 'Signatur',
  barcode: 'Barcode',
  standort: 'Standort',
  status: 'Status',
  vermisst: 'Vermisst',
  none: 'Keine Exemplare.',
  available: 'verfügbar',
  onLoanUntil: (date: string) => `ausgeliehen bis ${date}`,
  held: 'vorgemerkt',
  missing: 'vermisst',
  borrower: 'Ausgeliehen von',
  holder: 'vorgemerkt für',
  all: 'Alle Exemplare',
  newCopy: 'Neues Exemplar',
  editCopy: 'Exemplar bearbeiten',
  withdraw: 'Exemplar ausscheiden',
  create: 'Anlegen',
  save: 'Speichern',
};

const en: typeof de = {
  listTitle: (titel) => `Copies: ${titel}`,
  copyTitle: (signatur, titel) => `Copy ${signatur} – ${titel}`,
  heading: 'Copies',
  work: 'Work',
  nummer: 'No.',
  signatur: 'Shelfmark',
  barcode: 'Barcode',
  standort: 'Location',
  status: 'Status',
  vermisst: 'Missing',
  none: 'No copies.',
  available: 'available',
  onLoanUntil: (date) => `on loan until ${date}`,
  held: 'held',
  missing: 'missing',
  borrower: 'Borrowed by',
  holder: 'held for',
  all: 'All copies',
  newCopy: 'New copy',
  editCopy: 'Edit copy',
  withdraw: 'Withdraw copy',
  create: 'Create',
  save: 'Save',
};

export type CopyStrings = typeof de;

export function copyStrings(lang: Lang): CopyStrings {
  return lang === 'en' ? en : de;
}
