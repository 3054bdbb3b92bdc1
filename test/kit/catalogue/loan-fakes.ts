// Test support (not used in production): an in-memory LoanStore and the users of the loan
// tests; their request contexts come from fakeContext() in fakes.ts.
import type { Principal } from '../../../src/http/resource/types.ts';
import type { Lookup, PersonRef, WorkRef } from '../../../src/catalogue/model.ts';
import type { BorrowOutcome, Loan, LoanStore, ReturnOutcome } from '../../../src/catalogue/loans/model.ts';

export const NOW = new Date('2024-05-20T12:00:00.000Z');
export const anna: PersonRef = { id: 1, slug: 'anna-berger', vorname: 'Anna', nachname: 'Berger' };
export const ben: PersonRef = { id: 2, slug: 'ben-krueger', vorname: 'Ben', nachname: 'Krüger' };
export const petra: PersonRef = { id: 9, slug: 'petra-lindner', vorname: 'Petra', nachname: 'Lindner' };
export const faust: WorkRef = { id: 10, slug: 'faust', titel: 'Faust' };
export const effi: WorkRef = { id: 11, slug: 'effi-briest', titel: 'Effi Briest <1894>' };

export const USERS = {
  anonymous: null,
  owner: { id: anna.id, username: 'anna', role: 'member' },
  other: { id: ben.id, username: 'ben', role: 'member' },
  staff: { id: petra.id, username: 'personal', role: 'staff' },
} as const satisfies Record<string, Principal | null>;

/** Fields as the body parsers give them: an object without prototype. */
export function fields(values: Record<string, string>): unknown {
  return Object.assign(Object.create(null) as object, values);
}

export interface FakeLoanStore extends LoanStore {
  readonly loans: Loan[];
}

/** Anna has Faust (due 2024-05-29) and an overdue Effi Briest; Faust has 2 copies, Effi 1. */
export function fakeLoanStore(options: { copies?: Record<number, number> } = {}): FakeLoanStore {
  const persons = [anna, ben, petra];
  const works = [faust, effi];
  const copies: Record<number, number> = options.copies ?? { [faust.id]: 2, [effi.id]: 1 };
  const at = (s: string) => new Date(s);
  const loans: Loan[] = [
    {
      id: 100,
      person: anna,
      werk: faust,
      copy: { id: 1000, nummer: 1, signatur: 'Goe 10 Fa', barcode: 'SM10-1' },
      borrowedAt: at('2024-05-01T10:00:00.000Z'),
      dueAt: at('2024-05-29T10:00:00.000Z'),
      returnedAt: null,
    },
    {
      id: 101,
      person: anna,
      werk: effi,
      copy: { id: 1100, nummer: 1, signatur: 'Fon 11 Ef', barcode: 'SM11-1' },
      borrowedAt: at('2024-04-01T10:00:00.000Z'),
      dueAt: at('2024-04-29T10:00:00.000Z'),
      returnedAt: null,
    },
    {
      id: 102,
      person: anna,
      werk: effi,
      // Written before copies were kept (the shape tools like the bench loader still write).
      copy: null,
      borrowedAt: at('2024-01-01T10:00:00.000Z'),
      dueAt: at('2024-01-29T10:00:00.000Z'),
      returnedAt: at('2024-01-20T10:00:00.000Z'),
    },
  ];
  const open = () => loans.filter((l) => l.returnedAt === null);
  return {
    loans,
    async person(id): Promise<Lookup<PersonRef>> {
      if (id === 666) return { gone: true };
      const found = persons.find((p) => p.id === id);
      return found ? { found } : null;
    },
    async currentLoans(personId) {
      const mine = loans.filter((l) => l.person.id === personId);
      const stamps = mine
        .flatMap((l) => [l.borrowedAt, l.returnedAt ?? l.borrowedAt])
        .map((d) => d.getTime());
      return {
        items: open()
          .filter((l) => l.person.id === personId)
          .sort((a, b) => a.borrowedAt.getTime() - b.borrowedAt.getTime()),
        lastChange: stamps.length > 0 ? new Date(Math.max(...stamps)) : null,
      };
    },
    async loan(personId, loanId) {
      return loans.find((l) => l.id === loanId && l.person.id === personId) ?? null;
    },
    async borrow(personId, key): Promise<BorrowOutcome> {
      const person = persons.find((p) => p.id === personId);
      if (!person) return { ok: false, reason: 'unknown-person' };
      if ('slug' in key && key.slug === 'weg') return { ok: false, reason: 'work-gone' };
      const werk = works.find((w) => ('id' in key ? w.id === key.id : w.slug === key.slug));
      if (!werk) return { ok: false, reason: 'unknown-work' };
      const lent = open().filter((l) => l.werk.id === werk.id);
      if (lent.some((l) => l.person.id === personId)) return { ok: false, reason: 'already-borrowed' };
      if (lent.length >= (copies[werk.id] ?? 0)) return { ok: false, reason: 'no-copy-free' };
      const nummer = lent.length + 1;
      const loan: Loan = {
        id: Math.max(...loans.map((l) => l.id)) + 1,
        person,
        werk,
        copy: {
          id: werk.id * 100 + nummer,
          nummer,
          signatur: `Fak ${werk.id} ${nummer}`,
          barcode: `SM${werk.id}-${nummer}`,
        },
        borrowedAt: NOW,
        dueAt: new Date(NOW.getTime() + 28 * 86_400_000),
        returnedAt: null,
      };
      loans.push(loan);
      return { ok: true, loan };
    },
    async returnLoan(personId, loanId): Promise<ReturnOutcome> {
      const i = loans.findIndex((l) => l.id === loanId && l.person.id === personId);
      const loan = loans[i];
      if (!loan) return null;
      if (loan.returnedAt !== null) return { already: true };
      loans[i] = { ...loan, returnedAt: NOW };
      return { returned: loans[i] };
    },
    async due() {
      return open().sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime());
    },
  };
}
