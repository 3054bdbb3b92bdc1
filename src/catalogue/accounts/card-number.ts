// Library card numbers (ADR 0082). An account is given `L` and its person's id (six digits at
// least) when nothing else is said; an import may carry the numbers of cards already printed.
// Migration 0019 gives existing accounts the same default in SQL.

/** The card number an account gets by default. */
export function defaultCardNumber(personId: number): string {
  return `L${String(personId).padStart(6, '0')}`;
}

/** A card number as scanned or typed: trimmed (scanners add a newline), 1–32 printable characters. */
export function cleanCardNumber(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const card = value.trim();
  return /^[\x21-\x7e]{1,32}$/.test(card) ? card : null;
}
