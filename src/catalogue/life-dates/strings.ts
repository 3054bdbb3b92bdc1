// UI strings of the life dates' page and form (German default, English).
import type { Lang } from '../../http/resource/types.ts';

const de = {
  title: (name: string) => `Lebensdaten: ${name}`,
  editTitle: (name: string) => `Lebensdaten bearbeiten: ${name}`,
  born: 'Geboren',
  died: 'Gestorben',
  unknown: 'unbekannt',
  person: 'Person',
  lifeDates: 'Lebensdaten',
  yearHint: 'Ein ganzes Jahr (vor Christus negativ); leer lassen, wenn unbekannt.',
};

export type LifeDatesStrings = typeof de;

const en: LifeDatesStrings = {
  title: (name) => `Life dates: ${name}`,
  editTitle: (name) => `Edit life dates: ${name}`,
  born: 'Born',
  died: 'Died',
  unknown: 'unknown',
  person: 'Person',
  lifeDates: 'Life dates',
  yearHint: 'A whole year (negative before Christ); leave empty when unknown.',
};

export function lifeDatesStrings(lang: Lang): LifeDatesStrings {
  return lang === 'en' ? en : de;
}
