// The one rule for a new password, for the CLI (`user add`, `user passwd`) and the HTTP forms
// and API alike (ADR 0063): at least 8 characters (code points, after NFC — what scrypt hashes),
// at most 1,024 (a longer one is no password but a body), and not the user name itself.
// Length over composition rules (NIST SP 800-63B); the demo's "password = username" accounts
// predate it and keep working until changed.

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

/** Why `password` is not acceptable for `username` (English, for problem details), or null. */
export function passwordProblem(
  password: string,
  username?: string,
): 'too-short' | 'too-long' | 'username' | null {
  const length = [...password.normalize('NFC')].length;
  if (length < MIN_PASSWORD_LENGTH) return 'too-short';
  if (length > MAX_PASSWORD_LENGTH) return 'too-long';
  if (username !== undefined && password.trim().toLowerCase() === username.toLowerCase()) return 'username';
  return null;
}
