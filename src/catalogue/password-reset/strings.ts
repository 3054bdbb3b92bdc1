// UI strings of the password reset pages (German default, English).
import type { Lang } from '../../http/resource/types.ts';

const de = {
  requestTitle: 'Passwort vergessen',
  requestIntro: (minutes: number) =>
    `Geben Sie Ihren Benutzernamen oder die E-Mail-Adresse Ihres Kontos an. Wir schicken Ihnen einen Link, mit dem Sie ein neues Passwort festlegen; er gilt ${minutes} Minuten und nur einmal.`,
  identifier: 'Benutzername oder E-Mail-Adresse',
  send: 'Link anfordern',
  requested:
    'Wenn es zu dieser Angabe ein Konto mit E-Mail-Adresse gibt, ist der Link jetzt unterwegs. Sehen Sie in Ihrem Postfach nach (auch im Spam-Ordner).',
  unavailable:
    'Das Zurücksetzen per E-Mail ist in dieser Bibliothek nicht eingerichtet. Das Personal an der Theke setzt Ihnen ein neues Passwort.',
  resetTitle: 'Neues Passwort festlegen',
  resetIntro: (username: string, until: string) =>
    `Für das Konto „${username}“. Der Link gilt bis ${until}. Danach sind Sie auf allen Geräten abgemeldet und melden sich mit dem neuen Passwort an.`,
  newPassword: 'Neues Passwort',
  repeatPassword: 'Neues Passwort wiederholen',
  save: 'Passwort festlegen',
  required: 'Bitte ausfüllen.',
  unavailableProblem: 'Das Zurücksetzen des Passworts per E-Mail ist nicht eingerichtet.',
  linkInvalid:
    'Dieser Link ist verbraucht oder abgelaufen. Fordern Sie unter „Passwort vergessen“ einen neuen an.',
  linkUnknown:
    'Diesen Link gibt es nicht. Prüfen Sie, ob er vollständig ist, oder fordern Sie einen neuen an.',
};

export type ResetStrings = typeof de;

const en: ResetStrings = {
  requestTitle: 'Forgotten password',
  requestIntro: (minutes) =>
    `Give your user name or your account's e-mail address. We send you a link to set a new password; it works once, for ${minutes} minutes.`,
  identifier: 'User name or e-mail address',
  send: 'Send the link',
  requested:
    'If there is an account with an e-mail address for what you gave, the link is on its way. Look in your mailbox (and the spam folder).',
  unavailable:
    'Password reset by e-mail is not set up in this library. Staff at the desk can set a new password for you.',
  resetTitle: 'Set a new password',
  resetIntro: (username, until) =>
    `For the account “${username}”. The link works until ${until}. Afterwards you are logged out everywhere and log in with the new password.`,
  newPassword: 'New password',
  repeatPassword: 'Repeat the new password',
  save: 'Set the password',
  required: 'Please fill in.',
  unavailableProblem: 'Password reset by e-mail is not set up.',
  linkInvalid: 'This link has been used or has expired. Ask for a new one under “Forgotten password”.',
  linkUnknown: 'There is no such link. Check that it is complete, or ask for a new one.',
};

export function resetStrings(lang: Lang): ResetStrings {
  return lang === 'en' ? en : de;
}
