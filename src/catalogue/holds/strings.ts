// UI strings of the hold pages (German default, English by Accept-Language).
import type { Lang } from '../../http/resource/types.ts';

const de = {
  listTitle: (name: string) => `Vormerkungen von ${name}`,
  holdTitle: (titel: string) => `Vormerkung: ${titel}`,
  queueTitle: (titel: string) => `Warteschlange: ${titel}`,
  work: 'Werk',
  person: 'Person',
  placed: 'Vorgemerkt am',
  status: 'Status',
  position: 'Platz',
  actions: 'Aktion',
  waiting: (position: number | null) =>
    position === null ? 'Wartend' : `Wartend – Platz ${position} in der Warteschlange`,
  ready: 'Liegt bereit bis',
  copy: 'Exemplar',
  none: 'Zurzeit nichts vorgemerkt.',
  queueEmpty: 'Niemand hat dieses Werk vorgemerkt.',
  cancelButton: 'Vormerkung löschen',
  allLent: 'Alle Exemplare sind ausgeliehen.',
  signInToHold: 'Anmelden, um das Werk vorzumerken',
  // The accessible name starts with the visible text (WCAG 2.5.3 Label in Name).
  cancelLabel: (titel: string) => `Vormerkung löschen: „${titel}“`,
  placeHeading: 'Ein Werk vormerken',
  placeLabel: 'Werk (Adresse oder Kurzname, z. B. faust)',
  placeButton: 'Vormerken',
  placeHint: (days: number) =>
    `Vormerken lässt sich nur ein Werk, von dem kein Exemplar frei ist. Kommt eines zurück, liegt es ${days} Tage für Sie bereit.`,
  backToList: 'Zur Liste der Vormerkungen',
  loans: 'Ausleihen',
  holds: 'Vormerkungen',
  queueLink: 'Warteschlange der Vormerkungen',
};

const en: typeof de = {
  listTitle: (name) => `Holds of ${name}`,
  holdTitle: (titel) => `Hold: ${titel}`,
  queueTitle: (titel) => `Queue: ${titel}`,
  work: 'Work',
  person: 'Person',
  placed: 'Placed on',
  status: 'Status',
  position: 'Place',
  actions: 'Action',
  waiting: (position) => (position === null ? 'Waiting' : `Waiting – place ${position} in the queue`),
  ready: 'Ready for pick-up until',
  copy: 'Copy',
  none: 'No holds at the moment.',
  queueEmpty: 'Nobody has placed a hold on this work.',
  cancelButton: 'Cancel hold',
  allLent: 'Every copy is on loan.',
  signInToHold: 'Log in to place a hold',
  cancelLabel: (titel) => `Cancel hold: “${titel}”`,
  placeHeading: 'Place a hold',
  placeLabel: 'Work (address or short name, e.g. faust)',
  placeButton: 'Place hold',
  placeHint: (days) =>
    `A hold can be placed only on a work with no free copy. When one comes back, it is kept for you for ${days} days.`,
  backToList: 'Back to the list of holds',
  loans: 'Loans',
  holds: 'Holds',
  queueLink: 'Queue of holds',
};

export type HoldStrings = typeof de;

export function holdStrings(lang: Lang): HoldStrings {
  return lang === 'en' ? en : de;
}
