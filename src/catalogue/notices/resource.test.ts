// The notices as resources (ADR 0092) on every engine: a patron's notices for that patron and
// staff (anyone else 403, only staff learn 404), everyone's for staff only; newest first,
// filtered by status (400 for an unknown one), paged with links that keep the filter; a
// password reset's text (its link is a secret) is never shown, the SMTP error only to staff;
// valid against the schema in XML and JSON.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Principal, ResourceDefinition } from '../../http/resource/types.ts';
import type { DB, NoticeKind, NoticeState } from '../tables.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import { catalogueTestTargets, type TestDatabase } from '../../../test/kit/catalogue/targets.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import {
  bodyOf,
  MEMBER,
  representationOf,
  run,
  STAFF,
  statusOf,
} from '../../../test/kit/catalogue/write-support.ts';
import { noticesResource } from './resource.ts';

const stripXmlDecl = (x: string) => x.replace(/^<\?xml[^>]*>\n/, '');
type Json = Record<string, unknown> & { naechste?: string };

for (const target of catalogueTestTargets(process.env.SHELFMARK_TEST_DATABASE_URL)) {
  describe(`the notices as resources on ${target.dialect}`, { skip: target.skip }, () => {
    let database: TestDatabase<DB>;
    let stores: CatalogueStores;
    let notices: ResourceDefinition;
    let n = 0;

    before(async () => {
      database = await target.open();
      stores = createStores(database.db);
      notices = noticesResource(stores.noticeList, {
        bySlug: stores.holds.personBySlug,
        byId: stores.holds.personById,
      });
    });
    after(() => database?.dispose());

    async function member(vorname: string) {
      const person = await stores.persons.create({ vorname, nachname: `Post ${++n}` });
      const user: Principal = { id: person.id, username: `post${n}`, role: 'member' };
      return { ...person, user };
    }

    async function notice(
      personId: number,
      kind: NoticeKind,
      state: NoticeState,
      extra: { error?: string } = {},
    ) {
      const i = ++n;
      const stamp = `2026-11-${String(10 + (i % 15)).padStart(2, '0')}T08:00:00.000Z`;
      const row = await database.db
        .insertInto('notices')
        .values({
          kind,
          subject_id: 1000 + i,
          occasion: `occasion-${i}`,
          person_id: personId,
          email: 'leserin@example.org',
          language: 'de',
          subject: `Betreff ${i} <b>`,
          body: kind === 'password-reset' ? 'https://library.example/passwort?token=GEHEIM' : `Text ${i}`,
          state,
          attempts: state === 'pending' ? 0 : 1,
          next_attempt_at: stamp,
          last_error: extra.error ?? null,
          created_at: stamp,
          sent_at: state === 'sent' ? stamp : null,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }

    const get = (query: string, user: Principal | null = STAFF) =>
      run(notices, 'GET', { query, user, format: 'json' });
    const json = async (query: string, user: Principal | null = STAFF) =>
      JSON.parse(bodyOf(representationOf(await get(query, user)), 'json', { query, user })) as Json;
    const items = (page: Json) => page.benachrichtigung as Json[];

    test("a patron's notices: that patron and staff; anyone else 403; only staff learn 404", async () => {
      const cara = await member('Cara');
      const dora = await member('Dora');
      const mine = await notice(cara.id, 'hold-ready', 'sent');
      await notice(dora.id, 'due-soon', 'sent');
      for (const user of [cara.user, STAFF]) {
        const page = await json(`slug=${cara.slug}`, user);
        assert.deepEqual(
          items(page).map((x) => x.id),
          [mine],
        );
        assert.equal(
          items(page)[0]!.betrifft,
          `https://library.example/personen/${cara.slug}/vormerkungen/${1000 + n - 1}`,
        );
      }
      assert.equal(statusOf(await get(`id=${cara.id}`, cara.user)), 200);
      for (const user of [dora.user, MEMBER, null])
        assert.equal(statusOf(await get(`slug=${cara.slug}`, user)), 403);
      assert.equal(statusOf(await get('slug=gibt-es-nicht', cara.user)), 403);
      assert.equal(statusOf(await get('slug=gibt-es-nicht', STAFF)), 404);
    });

    test("everyone's notices are for staff; the status filter; newest first; paging keeps the filter", async () => {
      const eva = await member('Eva');
      for (const user of [eva.user, null]) assert.equal(statusOf(await get('', user)), 403);
      const failed = [
        await notice(eva.id, 'overdue-1', 'failed', { error: '550 no such user' }),
        await notice(eva.id, 'overdue-2', 'failed', { error: '550 no such user' }),
        await notice(eva.id, 'due-soon', 'failed', { error: '550 no such user' }),
      ];
      await notice(eva.id, 'due-soon', 'pending');
      const walked: unknown[] = [];
      let query: string | undefined = 'status=fehlgeschlagen&anzahl=2';
      while (query !== undefined) {
        const page = await json(query);
        assert.equal(page.status, 'fehlgeschlagen');
        for (const x of items(page)) assert.equal(x.status, 'fehlgeschlagen');
        walked.push(...items(page).map((x) => x.id));
        if (page.naechste)
          assert.match(page.naechste, /\/benachrichtigungen\?status=fehlgeschlagen&nach=[\w-]+&anzahl=2$/);
        query = page.naechste ? new URL(page.naechste).search.slice(1) : undefined;
      }
      const ours = walked.filter((id) => failed.includes(id as number));
      assert.deepEqual(ours, [...failed].reverse(), 'newest first, each once');
      assert.equal(statusOf(await get('status=verschollen')), 400);
      assert.equal(statusOf(await get('status=pending')), 400, 'the German names only');
      const pending = items(await json(`slug=${eva.slug}&status=geplant`));
      assert.deepEqual(
        pending.map((x) => x.status),
        ['geplant'],
      );
    });

    test("a password reset's text is never shown; the SMTP error only to staff; escaped; schema-valid", async () => {
      const fritz = await member('Fritz');
      await notice(fritz.id, 'password-reset', 'sent');
      await notice(fritz.id, 'overdue-1', 'failed', { error: '550 <mailbox> unknown' });
      const query = `slug=${fritz.slug}`;
      const own = items(await json(query, fritz.user));
      assert.deepEqual(
        own.map((x) => [x.art, x.text, x.fehler, x.betrifft]),
        [
          ['overdue-1', `Text ${n}`, undefined, `https://library.example/ausleihen/${fritz.id}/${1000 + n}`],
          ['password-reset', null, undefined, null],
        ],
      );
      const staff = items(await json(query));
      assert.equal(staff[0]!.fehler, '550 <mailbox> unknown');
      for (const user of [fritz.user, STAFF]) {
        const rep = representationOf(await get(query, user));
        assert.equal(jsonErrors('notices', JSON.parse(bodyOf(rep, 'json', { query, user }))), '');
        const xml = bodyOf(rep, 'xml', { query, user });
        assert.equal(await xmlErrors('notices', stripXmlDecl(xml)), '');
        assert.doesNotMatch(xml, /GEHEIM/);
        const html = bodyOf(rep, 'html', { query, user });
        assert.doesNotMatch(html, /GEHEIM/);
        assert.match(html, /Betreff \d+ &lt;b&gt;/);
        assert.match(html, new RegExp(`<h1>Benachrichtigungen an Fritz Post \\d+</h1>`));
        if (user === STAFF) assert.match(html, /550 &lt;mailbox&gt; unknown/);
        else assert.doesNotMatch(html, /550/);
      }
    });
  });
}
