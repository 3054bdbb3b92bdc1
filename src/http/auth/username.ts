// One normal form for a user name, for the account lookup AND the failed-log-in counters (ADR
// 0034: padded spellings were one account but separate counters): NFKC, default-ignorable code
// points removed, Unicode white space trimmed, lower case.
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

export function normaliseUsername(username: string): string {
  return username.normalize('NFKC').replace(IGNORABLE, '').trim().toLowerCase();
}
