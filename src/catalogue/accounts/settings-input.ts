// Reading the settings' request bodies (form, JSON or XML; the representation's field names):
// `email` (empty or null: none), `sprache` (de/en), `benachrichtigungen` (true/false; a form's
// unticked checkbox sends nothing, which is false).
import type { Fields } from '../../http/body/index.ts';
import type { WriteProblem } from '../writes/index.ts';
import { NOTICE_LANGUAGES, type NoticeLanguage, type SettingsChange } from './settings-store.ts';
import { settingsStrings as s } from './settings-strings.ts';

export const SETTINGS_FIELDS = ['email', 'sprache', 'benachrichtigungen'] as const;
export const MAX_EMAIL_LENGTH = 254;
/** One @, something on both sides, a dot in the domain, no spaces: what a mail server routes. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const local = (pick: (t: ReturnType<typeof s>) => string) => ({ de: pick(s('de')), en: pick(s('en')) });
const bad = (field: string, message: string, text: { de: string; en: string }): WriteProblem => ({
  field,
  code: 'format',
  message,
  local: text,
});

export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value);
}

export function readSettings(
  body: unknown,
  form: boolean,
): { settings?: SettingsChange; problems: WriteProblem[] } {
  const fields: Fields = typeof body === 'object' && body !== null ? (body as Fields) : {};
  const problems: WriteProblem[] = [];

  const rawEmail = fields.email;
  let email: string | null = null;
  if (typeof rawEmail === 'string' && rawEmail.trim() !== '') {
    email = rawEmail.trim();
    if (!isEmailAddress(email))
      problems.push(
        bad(
          'email',
          'is not an e-mail address',
          local((t) => t.badEmail),
        ),
      );
  } else if (rawEmail !== undefined && rawEmail !== null && rawEmail !== '')
    problems.push(
      bad(
        'email',
        'must be text or null',
        local((t) => t.badEmail),
      ),
    );

  const rawLanguage = fields.sprache;
  const language = NOTICE_LANGUAGES.find((l) => l === rawLanguage);
  if (language === undefined)
    problems.push(
      rawLanguage === undefined || rawLanguage === ''
        ? { field: 'sprache', code: 'required', message: 'is required', local: local((t) => t.required) }
        : bad(
            'sprache',
            'must be de or en',
            local((t) => t.badLanguage),
          ),
    );

  const rawNotices = fields.benachrichtigungen;
  let notices: boolean | undefined;
  if (rawNotices === true || rawNotices === 'true') notices = true;
  else if (rawNotices === false || rawNotices === 'false' || (form && rawNotices === undefined))
    notices = false;
  else
    problems.push(
      rawNotices === undefined
        ? {
            field: 'benachrichtigungen',
            code: 'required',
            message: 'is required',
            local: local((t) => t.required),
          }
        : bad(
            'benachrichtigungen',
            'must be true or false',
            local((t) => t.badNotices),
          ),
    );

  if (problems.length > 0 || language === undefined || notices === undefined) return { problems };
  return { settings: { email, language: language as NoticeLanguage, optOut: !notices }, problems };
}

export const SETTINGS_PROBLEMS = {
  passwordRequired: (): WriteProblem => ({
    field: 'passwort',
    code: 'required',
    message: 'is required to change the own e-mail address',
    local: local((t) => t.passwordRequired),
  }),
  wrongPassword: (): WriteProblem =>
    bad(
      'passwort',
      'is wrong',
      local((t) => t.wrongPassword),
    ),
};
