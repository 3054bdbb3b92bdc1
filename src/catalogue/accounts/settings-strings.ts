// UI strings of the settings page (German default, English).
import type { Lang } from '../../http/resource/types.ts';

const de = {
  title: (name: string) => `Einstellungen: ${name}`,
  settings: 'Einstellungen',
  email: 'E-Mail-Adresse',
  emailHint:
    'Nur Sie und das Personal sehen sie. Leer: keine Benachrichtigungen, kein Zurücksetzen des Passworts per E-Mail.',
  language: 'Sprache der E-Mails',
  languages: { de: 'Deutsch', en: 'Englisch' },
  notices: 'Benachrichtigungen per E-Mail (Leihfrist, Mahnung, Abholbereit)',
  noticesOn: 'ja',
  noticesOff: 'nein, abbestellt',
  save: 'Einstellungen speichern',
  changed: 'Zuletzt geändert',
  account: 'Konto',
  badEmail: 'Bitte eine E-Mail-Adresse wie name@example.org angeben.',
  badLanguage: 'Die Sprache ist „de“ oder „en“.',
  badNotices: 'Benachrichtigungen ist „true“ oder „false“.',
  required: 'Bitte ausfüllen.',
  password: 'Ihr Passwort',
  passwordHint:
    'Nur nötig, wenn Sie die E-Mail-Adresse ändern: an sie gehen Links zum Zurücksetzen des Passworts.',
  passwordRequired: 'Zum Ändern der E-Mail-Adresse bitte Ihr Passwort angeben.',
  wrongPassword: 'Das Passwort ist falsch.',
};

export type SettingsStrings = typeof de;

const en: SettingsStrings = {
  title: (name) => `Settings: ${name}`,
  settings: 'Settings',
  email: 'E-mail address',
  emailHint: 'Only you and staff see it. Empty: no notices, no password reset by e-mail.',
  language: 'Language of the e-mails',
  languages: { de: 'German', en: 'English' },
  notices: 'Notices by e-mail (due date, reminders, ready for pickup)',
  noticesOn: 'yes',
  noticesOff: 'no, opted out',
  save: 'Save settings',
  changed: 'Last changed',
  account: 'Account',
  badEmail: 'Please give an e-mail address such as name@example.org.',
  badLanguage: 'The language is "de" or "en".',
  badNotices: 'Notices is "true" or "false".',
  required: 'Please fill in.',
  password: 'Your password',
  passwordHint: 'Only needed to change the e-mail address: password reset links go there.',
  passwordRequired: 'Please give your password to change the e-mail address.',
  wrongPassword: 'The password is wrong.',
};

export function settingsStrings(lang: Lang): SettingsStrings {
  return lang === 'en' ? en : de;
}
