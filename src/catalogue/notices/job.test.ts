// The notice job against a real SMTP server on 127.0.0.1 (test/kit/mail/smtp.ts) and both
// engines: what is due is sent once in the patron's language; opted-out patrons and those
// without an address get nothing; an SMTP outage is retried with backoff (the clock is
// injected and advanced, nothing sleeps); a crashed sender's claim is taken over after its
// lease; concurrent jobs send each notice once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { startTestSmtp, type TestSmtp } from '../../../test/kit/mail/smtp.ts';
import { createNoticeJob, smtpMailer, type Mailer, type NoticeJob } from './index.ts';

const PG_URL = process.env.SHELFMARK_TEST_DATABASE_URL;
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;

for (const target of catalogueTestTargets(PG_URL)) {
  describe(`notices on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let smtp: TestSmtp;
    let clock = new Date('2026-12-01T08:00:00.000Z');
    const mailers: Mailer[] = [];
    let serial = 0;

    const job = (): NoticeJob => {
      const mailer = smtpMailer({
        host: '127.0.0.1',
        port: smtp.port,
        tls: 'off',
        from: 'Bibliothek <b@example.org>',
      });
      mailers.push(mailer);
      return createNoticeJob(database.db, mailer, {
        now: () => clock,
        rules: { dueSoonDays: 3, firstReminderDays: 1, secondReminderDays: 14 },
        absolute: (p) => `https://bibliothek.example${p}`,
        messageDomain: 'bibliothek.example',
      });
    };

    /** A patron with an account; `email` null: none. */
    const patron = async (email: string | null, language: 'de' | 'en' = 'de', optOut = false) => {
      const n = ++serial;
      const person = await stores.persons.create({ vorname: 'Leserin', nachname: `Nr ${n}` });
      await database.db
        .insertInto('accounts')
        .values({
          person_id: person.id,
          username: `leserin${n}`,
          password_hash: '!',
          role: 'member',
          created_at: clock.toISOString(),
          email,
          language,
          notices_opt_out: optOut ? 1 : 0,
        })
        .execute();
      return person.id;
    };
    /** A loan of a new work due `days` from now (negative: overdue). */
    const loanDue = async (personId: number, days: number, titel = `Werk ${++serial}`) => {
      const work = await stores.works.create({ titel, exemplare: 1 });
      const copy = await database.db
        .selectFrom('copies')
        .select('id')
        .where('work_id', '=', work.id)
        .executeTakeFirstOrThrow();
      const { id } = await database.db
        .insertInto('loans')
        .values({
          person_id: personId,
          work_id: work.id,
          copy_id: copy.id,
          borrowed_at: new Date(clock.getTime() - 20 * DAY_MS).toISOString(),
          due_at: new Date(clock.getTime() + days * DAY_MS).toISOString(),
          returned_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    };
    const byId = (id: string) => smtp.received.filter((m) => m.messageId === id).length;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { capabilities: database.capabilities, now: () => clock });
      smtp = await startTestSmtp();
    });
    after(async () => {
      for (const m of mailers) m.close();
      await smtp?.stop();
      await database?.dispose();
    });

    test('due soon, overdue and hold ready arrive once, in the patron’s language', async () => {
      const anna = await patron('anna@example.org', 'de');
      const ben = await patron('ben@example.org', 'en');
      const quiet = await patron('quiet@example.org', 'de', true);
      const noAddress = await patron(null);
      await loanDue(anna, 2, 'Faust');
      await loanDue(ben, -2, 'Moby-Dick');
      await loanDue(quiet, -2);
      await loanDue(noAddress, 1);
      await loanDue(anna, 10); // not yet due soon
      // A hold ready for Ben: a returned copy kept for him.
      const work = await stores.works.create({ titel: 'Walden', exemplare: 1 });
      const lender = await patron(null);
      const lent = await stores.loans.borrow(lender, { id: work.id });
      assert.ok(lent.ok);
      assert.ok((await stores.holds.place(ben, { id: work.id })).ok);
      await stores.loans.returnLoan(lender, lent.loan.id);

      const run = await job().run();
      assert.deepEqual(run, { planned: 3, sent: 3, retried: 0, failed: 0, obsolete: 0 });
      await smtp.arrived(3);
      const byTo = new Map(smtp.received.map((m) => [`${m.to} ${m.subject}`, m]));
      const faust = byTo.get('anna@example.org Leihfrist endet bald: „Faust“');
      assert.ok(faust, [...byTo.keys()].join('; '));
      assert.equal(faust.language, 'de');
      assert.match(faust.text, /^Guten Tag Leserin Nr \d+,$/m);
      assert.match(faust.text, /endet am 3\. Dezember 2026\./);
      assert.match(faust.text, /https:\/\/bibliothek\.example\/ausleihen\/\d+/);
      const moby = byTo.get('ben@example.org Reminder: “Moby-Dick” is overdue');
      assert.ok(moby);
      assert.equal(moby.language, 'en');
      const walden = byTo.get('ben@example.org Ready for pickup: “Walden”');
      assert.ok(walden);
      assert.match(walden.text, /pick it up by 8 December 2026/);

      assert.deepEqual(await job().run(), { planned: 0, sent: 0, retried: 0, failed: 0, obsolete: 0 });
      assert.equal(smtp.received.length, 3);
    });

    test('the second reminder follows a sent first one; a returned loan’s notice is obsolete', async () => {
      const cleo = await patron('cleo@example.org', 'de');
      const loan = await loanDue(cleo, -20, 'Ulysses');
      const before = smtp.received.length;
      const first = await job().run();
      assert.equal(first.sent, 1, 'the first reminder only');
      const second = await job().run();
      assert.equal(second.sent, 1, 'then the second');
      await smtp.arrived(before + 2);
      assert.deepEqual(
        smtp.received.slice(before).map((m) => m.subject),
        ['Erinnerung: „Ulysses“ ist überfällig', 'Zweite Erinnerung: „Ulysses“ ist überfällig'],
      );
      // Planned, then returned before a sender got to it.
      const dora = await patron('dora@example.org');
      const returned = await loanDue(dora, 1);
      const j = job();
      await database.db
        .insertInto('notices')
        .values({
          kind: 'due-soon',
          subject_id: returned,
          occasion: 'a due date the loan no longer has',
          person_id: dora,
          email: 'dora@example.org',
          language: 'de',
          subject: 'x',
          body: 'x',
          state: 'pending',
          next_attempt_at: clock.toISOString(),
          created_at: clock.toISOString(),
          updated_at: clock.toISOString(),
        })
        .execute();
      await database.db
        .updateTable('loans')
        .set({ returned_at: clock.toISOString() })
        .where('id', '=', returned)
        .execute();
      const run = await j.run();
      assert.equal(run.obsolete, 1);
      assert.equal(run.sent, 0);
      assert.ok(loan > 0);
    });

    test('with the SMTP server stopped the notices wait, and arrive once after it returns', async () => {
      clock = new Date(clock.getTime() + DAY_MS);
      const emil = await patron('emil@example.org', 'en');
      for (let i = 0; i < 3; i++) await loanDue(emil, -3);
      const before = smtp.received.length;
      await smtp.stop();
      const down = await job().run();
      assert.equal(down.planned, 3);
      assert.equal(down.sent, 0);
      assert.equal(down.retried, 1, 'the first refusal ends the run: the server is down');
      await smtp.start();
      const early = await job().run();
      assert.equal(early.sent, 2, 'the two never tried go now; the failed one waits for its backoff');
      clock = new Date(clock.getTime() + 2 * MINUTE_MS);
      const later = await job().run();
      assert.equal(later.sent, 1);
      await smtp.arrived(before + 3);
      const mine = smtp.received.slice(before);
      assert.equal(new Set(mine.map((m) => m.messageId)).size, 3);
      assert.ok(mine.every((m) => byId(m.messageId) === 1));
      const attempts = await database.db
        .selectFrom('notices')
        .select(['attempts', 'last_error'])
        .where('email', '=', 'emil@example.org')
        .orderBy('attempts', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal(attempts.attempts, 2);
      assert.equal(attempts.last_error, null);
    });

    test('a crashed sender’s claim is retried once its lease has run out', async () => {
      const fay = await patron('fay@example.org');
      await loanDue(fay, -2);
      const j = job();
      await j.run(); // planned and sent; put back as another sender's claim that died unsent
      const notice = await database.db
        .updateTable('notices')
        .set({
          state: 'pending',
          sent_at: null,
          claimed_by: 'dead:1:x',
          claimed_until: new Date(clock.getTime() + 5 * MINUTE_MS).toISOString(),
        })
        .where('email', '=', 'fay@example.org')
        .returning('id')
        .executeTakeFirstOrThrow();
      const before = smtp.received.length;
      assert.equal((await j.run()).sent, 0, 'the lease still holds');
      clock = new Date(clock.getTime() + 6 * MINUTE_MS);
      assert.equal((await j.run()).sent, 1, 'taken over');
      await smtp.arrived(before + 1);
      assert.equal(smtp.received.at(-1)?.messageId, `<notice-${notice.id}.overdue-1@bibliothek.example>`);
    });

    test('concurrent jobs send every notice exactly once', async () => {
      clock = new Date(clock.getTime() + DAY_MS);
      const before = smtp.received.length;
      const gil = await patron('gil@example.org');
      for (let i = 0; i < 12; i++) await loanDue(gil, -2);
      const runs = await Promise.all(Array.from({ length: 4 }, () => job().run()));
      assert.equal(
        runs.reduce((n, r) => n + r.planned, 0),
        12,
      );
      assert.equal(
        runs.reduce((n, r) => n + r.sent, 0),
        12,
      );
      await smtp.arrived(before + 12);
      const mine = smtp.received.slice(before);
      assert.equal(mine.length, 12);
      assert.equal(new Set(mine.map((m) => m.messageId)).size, 12);
    });
  });
}
