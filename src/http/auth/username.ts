// One normal form for a user name, used for the account lookup AND the failed-log-in counters
// (docs/decisions/0034). Before, the counter lower-cased while the lookup also trimmed, so
// ` goethe`, `goethe ` and `goethe` padded with NBSP or U+3000 were one account but separate
// counters: 30 guesses with 1–30 leading spaces were never limited.
//   NFKC: compatibility forms fold (U+3000 and NBSP → space, fullwidth `ｇ` → `g`);
//   default-ignorable code points (zero-width space, soft hyphen, BOM …) are removed;
//   trim() removes every Unicode White_Space at the ends; then lower case (names are
//   case-insensitive, stored lower-case).
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

export function normaliseUsername(username: string): string {
  return username.normalize('NFKC').replace(IGNORABLE, '').trim().toLowerCase();
}
