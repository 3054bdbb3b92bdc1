// UI strings of the write forms (German default, English), kept beside the forms so the read
// side's i18n files stay untouched while both are edited at the same time.
import type { Lang } from '../../http/resource/types.ts';
import type { WriteProblem } from './problems.ts';

const deForms = {
  newPerson: 'Neue Person',
  newWork: 'Neues Werk',
  editPerson: (name: string) => `Person bearbeiten: ${name}`,
  editWork: (titel: string) => `Werk bearbeiten: ${titel}`,
  edit: 'Bearbeiten',
  create: 'Anlegen',
  save: 'Speichern',
  delete: 'Löschen',
  deletePerson: 'Diese Person löschen',
  deleteWork: 'Dieses Werk löschen',
  confirmDeleteTitle: (name: string) => `„${name}“ löschen?`,
  personDeleted:
    'Die Person wird aus dem Katalog gelöscht; ihre Adresse antwortet danach „nicht mehr vorhanden“.',
  workDeleted:
    'Das Werk wird aus dem Katalog gelöscht; seine Adresse antwortet danach „nicht mehr vorhanden“.',
  cannotUndo: 'Das lässt sich nicht rückgängig machen.',
  confirmDeleteButton: 'Endgültig löschen',
  cancel: 'Abbrechen',
  required: 'Pflichtfeld',
  optional: 'optional',
  errorSummary: 'Bitte korrigieren Sie die markierten Angaben:',
  vorname: 'Vorname',
  nachname: 'Nachname',
  image: 'Bild (URL)',
  imageHint: 'Eine http(s)-Adresse oder ein Pfad wie /bilder/name.svg; leer lassen für das Standardbild.',
  geboren: 'Geboren (Jahr)',
  gestorben: 'Gestorben (Jahr)',
  titel: 'Titel',
  jahr: 'Jahr',
  exemplare: 'Exemplare',
  person: 'Personen',
  personHint: 'Je Zeile eine Person: ihr Kürzel (z. B. goethe) oder ihre Adresse (/personen/goethe).',
  personLabel: (n: number) => `Person ${n}`,
  problem(p: WriteProblem): string {
    if (p.local) return p.local.de;
    switch (p.code) {
      case 'required':
        return 'Bitte ausfüllen.';
      case 'type':
        return p.field === 'person' || p.field === 'image'
          ? 'Ungültige Angabe.'
          : 'Bitte eine ganze Zahl angeben.';
      case 'single':
        return 'Nur einmal angeben.';
      case 'too_short':
        return `Mindestens ${p.limit} Zeichen.`;
      case 'too_long':
        return `Höchstens ${p.limit} Zeichen.`;
      case 'too_small':
        return `Mindestens ${p.limit}.`;
      case 'too_large':
        return `Höchstens ${p.limit}.`;
      case 'format':
        return p.message;
    }
  },
};

export type FormStrings = typeof deForms;

const enForms: FormStrings = {
  newPerson: 'New person',
  newWork: 'New work',
  editPerson: (name) => `Edit person: ${name}`,
  editWork: (titel) => `Edit work: ${titel}`,
  edit: 'Edit',
  create: 'Create',
  save: 'Save',
  delete: 'Delete',
  deletePerson: 'Delete this person',
  deleteWork: 'Delete this work',
  confirmDeleteTitle: (name) => `Delete “${name}”?`,
  personDeleted: 'The person is deleted from the catalogue; their address then answers “gone”.',
  workDeleted: 'The work is deleted from the catalogue; its address then answers “gone”.',
  cannotUndo: 'This cannot be undone.',
  confirmDeleteButton: 'Delete for good',
  cancel: 'Cancel',
  required: 'required',
  optional: 'optional',
  errorSummary: 'Please correct the marked fields:',
  vorname: 'First name',
  nachname: 'Last name',
  image: 'Image (URL)',
  imageHint: 'An http(s) address or a path such as /bilder/name.svg; leave empty for the default image.',
  geboren: 'Born (year)',
  gestorben: 'Died (year)',
  titel: 'Title',
  jahr: 'Year',
  exemplare: 'Copies',
  person: 'Persons',
  personHint: 'One person per line: their short name (e.g. goethe) or address (/personen/goethe).',
  personLabel: (n) => `Person ${n}`,
  problem(p) {
    if (p.local) return p.local.en;
    switch (p.code) {
      case 'required':
        return 'Please fill this in.';
      case 'type':
        return p.field === 'person' || p.field === 'image' ? 'Not valid.' : 'Please give a whole number.';
      case 'single':
        return 'Give this only once.';
      case 'too_short':
        return `At least ${p.limit} characters.`;
      case 'too_long':
        return `At most ${p.limit} characters.`;
      case 'too_small':
        return `At least ${p.limit}.`;
      case 'too_large':
        return `At most ${p.limit}.`;
      case 'format':
        return p.message;
    }
  },
};

export function formStrings(lang: Lang): FormStrings {
  return lang === 'en' ? enForms : deForms;
}
