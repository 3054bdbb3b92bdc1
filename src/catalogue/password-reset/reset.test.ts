// Password reset by e-mailed link over the real resource layer, the real stores on both engines
// and a real SMTP server on 127.0.0.1 (test/kit/mail/smtp.ts): the same answer for names that
// exist and names that do not, the link in the mail and only its hash in the database, the
// password set once (a second use is 410), every session ended, expiry by the injected clock,
// the limits per name or address and per client, the form's flow, and 503 without SMTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { catalogueResources } from '../index.ts';
import { accountSecurity, catalogueApp, plainHash } from '../../../test/kit/catalogue/app.ts';
import type { DB } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { createDatabaseLoginLimiter } from '../accounts/index.ts';
import { smtpMailer, type Mailer } from '../notices/index.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { startTestSmtp, type TestSmtp } from '../../../test/kit/mail/smtp.ts';
import { jsonErrors } from '../../../test/kit/catalogue/validate.ts';
import { hashToken, resetMail, type ResetMail } from './index.ts';

const PG_URL = process.env.SHELFMARK_TEST_DATABASE_URL;
const ORIGIN = 'https://library.example';
const MINUTE_MS = 60_000;

for (const target of catalogueTestTargets(PG_URL)) {
  describe(`password reset on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let smtp: TestSmtp;
    let mailer: Mailer;
    let mail: ResetMail;
    let app: FastifyInstance;
    let bare: FastifyInstance;
    let clock = new Date('2026-12-01T08:00:00.000Z');
    const errors: unknown[] = [];

    async function appWith(reset: ResetMail | null) {
      const catalogue = catalogueResources(stores, {
        hashPassword: plainHash,
        now: () => clock,
        passwordReset: {
          store: stores.passwordResets,
          mail: reset,
          perAccount: createDatabaseLoginLimiter(database.db, { maxFailures: 3 }),
          perClient: createDatabaseLoginLimiter(database.db, { maxFailures: 10 }),
        },
      });
      return catalogueApp(catalogue, {
        baseUrl: ORIGIN,
        ...accountSecurity(stores.accounts, { sessionRecords: stores.sessions }),
      });
    }

    let serial = 0;
    /** A member with a password `<name>-pass` and, unless null, an address. */
    async function member(name: string, email: string | null, language: 'de' | 'en' = 'de') {
      const person = await stores.persons.create({ vorname: name, nachname: `Nr ${++serial}` });
      await stores.accounts.add({ personId: person.id, username: name, passwordHash: `plain:${name}-pass` });
      await stores.settings.write(person.id, { email, language, optOut: true });
      return person;
    }

    before(async () => {
      database = await target.open();
      stores = createStores(database.db, { now: () => clock });
      smtp = await startTestSmtp();
      mailer = smtpMailer({
        host: '127.0.0.1',
        port: smtp.port,
        tls: 'off',
        from: 'Bibliothek <b@example.org>',
      });
      mail = resetMail(database.db, {
        mailer,
        absolute: (p) => ORIGIN + p,
        messageDomain: 'library.example',
        now: () => clock,
        onError: (error) => errors.push(error),
      });
      app = await appWith(mail);
      bare = await appWith(null);
    });
    after(async () => {
      await app?.close();
      await bare?.close();
      await mail?.drain();
      mailer?.close();
      await smtp?.stop();
      await database?.dispose();
    });

    const ask = (konto: string, remoteAddress = '192.0.2.1') =>
      app.inject({
        method: 'POST',
        url: '/passwort-vergessen',
        remoteAddress,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        payload: JSON.stringify({ konto }),
      });
    const linkIn = (text: string) => {
      const url = /https:\/\/library\.example(\/passwort-neu\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];
      assert.ok(url, `a link in the mail: ${text}`);
      return url;
    };
    async function logIn(username: string, password: string) {
      return app.inject({
        method: 'POST',
        url: '/sitzung',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: ORIGIN },
        payload: JSON.stringify({ username, password }),
      });
    }

    test('the same answer for a name that exists and one that does not; the link by mail, only its hash stored', async () => {
      const dora = await member('dora', 'Dora@Example.org');
      const unknown = await ask('niemand@example.org', '192.0.2.10');
      const noAddress = await member('emil', null);
      const withoutMail = await ask('emil', '192.0.2.10');
      await member('ludwig', 'ludwig@example.org');
      assert.ok(await stores.accounts.setLocked('ludwig', true));
      const locked = await ask('ludwig', '192.0.2.10');
      const known = await ask('dora@example.org', '192.0.2.10');
      for (const answer of [unknown, withoutMail, locked, known]) {
        assert.equal(answer.statusCode, 204);
        assert.equal(answer.body, '');
      }
      await smtp.arrived(1);
      await mail.drain();
      assert.equal(smtp.received.length, 1, 'only the unlocked account with an address got a mail');
      const [sent] = smtp.received;
      assert.equal(sent!.to.toLowerCase(), 'dora@example.org');
      assert.equal(sent!.language, 'de');
      assert.match(sent!.text, /Konto „dora“/);
      const path = linkIn(sent!.text);
      const token = path.split('/').pop()!;
      const rows = await database.db.selectFrom('password_resets').selectAll().execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.person_id, dora.id);
      assert.equal(rows[0]!.token_hash, hashToken(token));
      assert.notEqual(rows[0]!.token_hash, token);
      assert.equal(rows[0]!.expires_at, new Date(clock.getTime() + 30 * MINUTE_MS).toISOString());
      const recorded = await database.db
        .selectFrom('notices')
        .selectAll()
        .where('kind', '=', 'password-reset')
        .execute();
      assert.equal(recorded.length, 1);
      assert.equal(recorded[0]!.state, 'sent');
      assert.equal(recorded[0]!.person_id, dora.id);
      assert.ok(!recorded[0]!.body.includes(token), 'the record keeps no link');
      assert.ok(noAddress.id > 0);
      assert.deepEqual(errors, []);
    });

    test('the link sets the password once, ends every session and is then 410', async () => {
      await member('fritz', 'fritz@example.org', 'en');
      const session = await logIn('fritz', 'fritz-pass');
      assert.equal(session.statusCode, 200);
      const cookie = /^(shelfmark_session=[^;]+)/.exec(String(session.headers['set-cookie']))![1]!;
      const before = smtp.received.length;
      assert.equal((await ask('FRITZ', '192.0.2.20')).statusCode, 204);
      await smtp.arrived(before + 1);
      const sent = smtp.received[before]!;
      assert.equal(sent.language, 'en');
      assert.equal(sent.subject, 'Set a new password');
      const path = linkIn(sent.text);
      const read = await app.inject({ url: path, headers: { accept: 'application/json' } });
      assert.equal(read.statusCode, 200);
      assert.equal(jsonErrors('password-reset', read.json()), '');
      assert.equal(read.json().username, 'fritz');
      const post = (body: unknown) =>
        app.inject({
          method: 'POST',
          url: path,
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          payload: JSON.stringify(body),
        });
      const form = await app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({
          neuesPasswort: 'geheim-und-lang',
          wiederholung: 'anders-und-lang',
        }).toString(),
      });
      assert.equal(form.statusCode, 422, 'a form whose repetition differs');
      assert.match(form.body, /aria-invalid="true"/);
      assert.doesNotMatch(form.body, /geheim-und-lang|anders-und-lang/, 'no password echoed');
      const weak = await post({ neuesPasswort: 'kurz' });
      assert.equal(weak.statusCode, 422);
      assert.equal(weak.json().errors[0].field, 'neuesPasswort');
      assert.equal((await post({ neuesPasswort: 'fritz' })).statusCode, 422, 'not the user name');
      const done = await post({ neuesPasswort: 'ein-neues-langes' });
      assert.equal(done.statusCode, 204, done.body);
      const again = await post({ neuesPasswort: 'noch-ein-neues' });
      assert.equal(again.statusCode, 410);
      assert.equal(again.json().code, 'SHELFMARK_RESET_LINK_INVALID');
      assert.equal(
        (await app.inject({ url: path, headers: { accept: 'application/json' } })).statusCode,
        410,
      );
      const who = await app.inject({ url: '/sitzung.json', headers: { cookie } });
      assert.equal(who.json().angemeldet, false, 'the old session ended');
      assert.equal((await logIn('fritz', 'fritz-pass')).statusCode, 401);
      assert.equal((await logIn('fritz', 'ein-neues-langes')).statusCode, 200);
    });

    test('a link expires after 30 minutes; using one spends the account’s other links', async () => {
      await member('gerda', 'gerda@example.org');
      const before = smtp.received.length;
      await ask('gerda', '192.0.2.30');
      await ask('gerda@example.org', '192.0.2.30');
      await smtp.arrived(before + 2);
      const [first, second] = smtp.received.slice(before).map((m) => linkIn(m.text));
      const get = (path: string) => app.inject({ url: path, headers: { accept: 'application/json' } });
      assert.equal((await get(first!)).statusCode, 200);
      clock = new Date(clock.getTime() + 29 * MINUTE_MS);
      const used = await app.inject({
        method: 'POST',
        url: first!,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        payload: JSON.stringify({ neuesPasswort: 'gerdas-neues-pw' }),
      });
      assert.equal(used.statusCode, 204);
      assert.equal((await get(second!)).statusCode, 410, 'the other link is spent');
      await ask('gerda', '192.0.2.31');
      await smtp.arrived(before + 3);
      const third = linkIn(smtp.received[before + 2]!.text);
      clock = new Date(clock.getTime() + 30 * MINUTE_MS);
      const expired = await get(third);
      assert.equal(expired.statusCode, 410);
      assert.equal(expired.json().code, 'SHELFMARK_RESET_LINK_INVALID');
      assert.equal((await get(`/passwort-neu/${'A'.repeat(43)}`)).statusCode, 404);
    });

    test('two requests with one link at once: one sets the password, the other is 410', async () => {
      await member('hanna', 'hanna@example.org');
      const before = smtp.received.length;
      await ask('hanna', '192.0.2.35');
      await smtp.arrived(before + 1);
      const path = linkIn(smtp.received[before]!.text);
      const answers = await Promise.all(
        ['erstes-passwort', 'zweites-passwort'].map((neuesPasswort) =>
          app.inject({
            method: 'POST',
            url: path,
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            payload: JSON.stringify({ neuesPasswort }),
          }),
        ),
      );
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [204, 410]);
    });

    test('limits: three requests per name or address, ten per client, 429 whether or not it exists', async () => {
      for (let i = 0; i < 3; i++)
        assert.equal((await ask('gibt-es-nicht', `192.0.2.${40 + i}`)).statusCode, 204);
      const refused = await ask('GIBT-ES-NICHT', '192.0.2.49');
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().code, 'SHELFMARK_TOO_MANY_REQUESTS');
      assert.ok(Number(refused.headers['retry-after']) > 0);
      for (let i = 0; i < 10; i++) assert.equal((await ask(`name${i}`, '198.51.100.7')).statusCode, 204);
      assert.equal((await ask('name-elf', '198.51.100.7')).statusCode, 429, 'the client’s limit');
      assert.equal((await ask('name-elf', '198.51.100.8')).statusCode, 204, 'another client may');
    });

    test('the forms: 303 to the same answer; a missing field is 422 on the form', async () => {
      const form = (fields: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: '/passwort-vergessen',
          remoteAddress: '203.0.113.5',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
          payload: new URLSearchParams(fields).toString(),
        });
      const sent = await form({ konto: 'wer-auch-immer' });
      assert.equal(sent.statusCode, 303);
      assert.equal(sent.headers.location, `${ORIGIN}/passwort-vergessen?angefordert`);
      const page = await app.inject({
        url: '/passwort-vergessen?angefordert',
        headers: { accept: 'text/html' },
      });
      assert.match(page.body, /role="status"/);
      const empty = await form({ konto: '' });
      assert.equal(empty.statusCode, 422);
      assert.match(empty.body, /aria-invalid="true"/);
      const login = await app.inject({ url: '/sitzung', headers: { accept: 'text/html' } });
      assert.match(login.body, /href="\/passwort-vergessen"/, 'the log-in form offers it');
    });

    test('without an SMTP server: the page says so, a request is 503', async () => {
      const read = await bare.inject({ url: '/passwort-vergessen', headers: { accept: 'application/json' } });
      assert.deepEqual(read.json(), { verfuegbar: false, gueltigMinuten: 30 });
      assert.equal(jsonErrors('password-reset-request', read.json()), '');
      const refused = await bare.inject({
        method: 'POST',
        url: '/passwort-vergessen',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        payload: JSON.stringify({ konto: 'dora' }),
      });
      assert.equal(refused.statusCode, 503);
    });
  });
}
