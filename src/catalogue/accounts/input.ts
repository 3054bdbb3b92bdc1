// Reading the account's request bodies (form, JSON or XML; the representation's field names).
// Password fields are read as they are — never trimmed, never echoed back, never logged.
import type { Fields } from '../../http/body/index.ts';
import { problem, type WriteProblem } from '../writes/index.ts';
import type { Role } from '../tables.ts';
import { ROLES } from './errors.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from './password-rule.ts';
import { accountStrings as s } from './strings.ts';

const local = (pick: (t: ReturnType<typeof s>) => string) => ({ de: pick(s('de')), en: pick(s('en')) });

/** A string field as sent, or undefined (absent, empty, or not text). */
export function text(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return undefined;
  const value = (body as Fields)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export const required = (name: string): WriteProblem => ({
  field: name,
  code: 'required',
  message: 'is required',
  local: local((t) => t.required),
});

/** The rule of accounts/password-rule.ts as a field problem, or null. */
export function newPasswordProblem(name: string, password: string, username: string): WriteProblem | null {
  switch (passwordProblem(password, username)) {
    case 'too-short':
      return {
        field: name,
        code: 'too_short',
        message: `must be at least ${MIN_PASSWORD_LENGTH} characters`,
        limit: MIN_PASSWORD_LENGTH,
        local: { de: s('de').tooShort(MIN_PASSWORD_LENGTH), en: s('en').tooShort(MIN_PASSWORD_LENGTH) },
      };
    case 'too-long':
      return {
        field: name,
        code: 'too_long',
        message: `must be at most ${MAX_PASSWORD_LENGTH} characters`,
        limit: MAX_PASSWORD_LENGTH,
        local: { de: s('de').tooLong(MAX_PASSWORD_LENGTH), en: s('en').tooLong(MAX_PASSWORD_LENGTH) },
      };
    case 'username':
      return problem(
        name,
        'must not be the user name',
        local((t) => t.isUsername),
      );
    default:
      return null;
  }
}

/** A new password and, when the form sent it (or `repeat` is required), its repetition. */
export function readNewPassword(
  body: unknown,
  names: { password: string; repeat: string },
  username: string,
  repeatRequired: boolean,
): { password?: string; problems: WriteProblem[] } {
  const password = text(body, names.password);
  const repeat = text(body, names.repeat);
  const problems: WriteProblem[] = [];
  if (password === undefined) problems.push(required(names.password));
  else {
    const weak = newPasswordProblem(names.password, password, username);
    if (weak) problems.push(weak);
  }
  if (repeat === undefined && repeatRequired) problems.push(required(names.repeat));
  else if (repeat !== undefined && password !== undefined && repeat !== password)
    problems.push(
      problem(
        names.repeat,
        'does not match the new password',
        local((t) => t.mismatch),
      ),
    );
  return { ...(password !== undefined && { password }), problems };
}

/** `gesperrt`: JSON true/false, "true"/"false" in XML and forms (an unticked checkbox sends nothing). */
export function readLocked(body: unknown, form: boolean): boolean | WriteProblem {
  const value = typeof body === 'object' && body !== null ? (body as Fields).gesperrt : undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false' || (form && value === undefined)) return false;
  return value === undefined
    ? required('gesperrt')
    : problem(
        'gesperrt',
        'must be true or false',
        local((t) => t.badLocked),
      );
}

export function readRole(body: unknown): Role | WriteProblem {
  const value = text(body, 'rolle');
  if (value === undefined) return required('rolle');
  return ROLES.includes(value as Role)
    ? (value as Role)
    : problem(
        'rolle',
        'must be member or staff',
        local((t) => t.badRole),
      );
}

export const ACCOUNT_PROBLEMS = {
  badUsername: () =>
    problem(
      'username',
      'is not a valid user name',
      local((t) => t.badUsername),
    ),
  usernameTaken: () =>
    problem(
      'username',
      'is taken',
      local((t) => t.usernameTaken),
    ),
  usernameFixed: () =>
    problem(
      'username',
      'cannot be changed',
      local((t) => t.usernameFixed),
    ),
  passwordElsewhere: () =>
    problem(
      'passwort',
      'is changed at the password resource (…/konto/passwort)',
      local((t) => t.passwordElsewhere),
    ),
  wrongOldPassword: () =>
    problem(
      'altesPasswort',
      'is wrong',
      local((t) => t.wrongOldPassword),
    ),
};
