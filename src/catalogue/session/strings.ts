// UI strings of log-in and log-out (the session feature and the layout's header).
import type { Lang } from '../../http/resource/types.ts';

const de = {
  loginTitle: 'Anmelden',
  loginLink: 'Anmelden',
  myAccount: 'Mein Konto',
  loginIntro: 'Melden Sie sich mit Ihrem Benutzernamen und Passwort an.',
  username: 'Benutzername',
  password: 'Passwort',
  loginButton: 'Anmelden',
  forgotPassword: 'Passwort vergessen?',
  logoutButton: 'Abmelden',
  sessionTitle: 'Sitzung',
  loggedInAs: 'angemeldet als',
  role: { member: 'Mitglied', staff: 'Personal' },
  myLoans: 'Meine Ausleihen',
  myPerson: 'Meine Personenseite',
  loginFailed: 'Benutzername oder Passwort ist falsch.',
  forbiddenLoggedIn: (name: string) =>
    `Sie sind als ${name} angemeldet und dürfen diese Seite nicht sehen. Melden Sie sich mit einem anderen Konto an:`,
  forbiddenAnonymous: 'Melden Sie sich an, um diese Seite zu sehen:',
  accountLabel: 'Benutzerkonto',
};

export type SessionStrings = typeof de;

const en: SessionStrings = {
  loginTitle: 'Log in',
  loginLink: 'Log in',
  myAccount: 'My account',
  loginIntro: 'Log in with your user name and password.',
  username: 'User name',
  password: 'Password',
  loginButton: 'Log in',
  forgotPassword: 'Forgotten your password?',
  logoutButton: 'Log out',
  sessionTitle: 'Session',
  loggedInAs: 'logged in as',
  role: { member: 'member', staff: 'staff' },
  myLoans: 'My loans',
  myPerson: 'My person page',
  loginFailed: 'Wrong user name or password.',
  forbiddenLoggedIn: (name: string) =>
    `You are logged in as ${name} and may not see this page. Log in with another account:`,
  forbiddenAnonymous: 'Log in to see this page:',
  accountLabel: 'Account',
};

export function sessionStrings(lang: Lang): SessionStrings {
  return lang === 'en' ? en : de;
}
