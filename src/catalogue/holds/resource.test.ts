// The hold handlers over the real stores (a migrated in-memory SQLite database): the access
// matrix, statuses, forms, and every representation valid against its schema.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import type {
  HandlerMethod,
  Outcome,
  Principal,
  Representation,
  ResourceDefinition,
} from '../../http/resource/types.ts';
import { migrateToLatest, openDatabase, type Database } from '../../storage/index.ts';
import { catalogueMigrations } from '../migrations/index.ts';
import { createStores, type CatalogueStores } from '../stores.ts';
import type { DB } from '../tables.ts';
import { HttpError } from '../shared/index.ts';
import { fakeContext, render, type FakeContextOptions } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { holdResource, holdsResource, queueResource } from './resource.ts';
import { holdButton } from './hold-button.ts';
import { skipUnless } from '../../../test/support/requirements.ts';
import { htmlReport } from '../../../test/kit/html-report.ts';
import { renderRepresentation } from '../../http/representation/render.ts';

let database: Database<DB>;
let stores: CatalogueStores;
let serial = 0;
let clock = Date.parse('2024-05-01T10:00:00.000Z');

/** Copy rows for a work (when the work store does not make them itself). */
async function ensureCopies(db: Kysely<DB>, workId: number, n: number): Promise<void> {
  const have = await db.selectFrom('copies').select('nummer').where('work_id', '=', workId).execute();
  for (let nummer = have.length + 1; nummer <= n; nummer++) {
    const at = new Date(0).toISOString();
    await db
      .insertInto('copies')
      .values({
        work_id: workId,
        nummer,
        signatur: `R ${workId}/${nummer}`,
        barcode: `R-${workId}-${nummer}`,
        standort: 'Test',
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
}

before(async () => {
  database = await openDatabase<DB>(':memory:');
  await migrateToLatest(database, catalogueMigrations);
  stores = createStores(database.db, {
    capabilities: database.capabilities,
    now: () => new Date((clock += 1000)),
  });
});
after(() => database?.close());

async function member(): Promise<{ id: number; slug: string; user: Principal }> {
  const p = await stores.persons.create({ vorname: 'Leserin', nachname: `Nr ${++serial}` });
  return { id: p.id, slug: p.slug, user: { id: p.id, username: `l${serial}`, role: 'member' } };
}
const STAFF: Principal = { id: 999_999, username: 'personal', role: 'staff' };

/** A work with one copy, lent to a fresh member. */
async function lentWork(): Promise<{ id: number; slug: string }> {
  const w = await stores.works.create({ titel: `Vergriffen ${++serial}`, exemplare: 1 });
  await ensureCopies(database.db, w.id, 1);
  const lender = await member();
  assert.ok((await stores.loans.borrow(lender.id, { id: w.id })).ok);
  return w;
}

async function run(
  resource: ResourceDefinition,
  method: HandlerMethod,
  opts: FakeContextOptions,
): Promise<Outcome | HttpError> {
  try {
    return await resource.methods[method]!(fakeContext({ format: 'json', ...opts, method }));
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}
const statusOf = (r: Outcome | HttpError) =>
  r instanceof HttpError ? r.status : r.type === 'representation' ? (r.status ?? 200) : r.status;
const codeOf = (r: Outcome | HttpError) => (r instanceof HttpError ? r.code : null);

const list = () => holdsResource(stores.holds, { holdDays: 7 });
const one = () => holdResource(stores.holds);
const queue = () => queueResource(stores.holds);

describe('access: the member and staff; anonymous and another member 403', () => {
  for (const who of ['anonymous', 'member', 'other', 'staff'] as const) {
    test(who, async () => {
      const anna = await member();
      const other = await member();
      const w = await lentWork();
      const placed = await stores.holds.place(anna.id, { id: w.id });
      assert.ok(placed.ok);
      const user = { anonymous: null, member: anna.user, other: other.user, staff: STAFF }[who];
      const ok = who === 'member' || who === 'staff';
      const w2 = await lentWork();
      const statuses = [
        statusOf(await run(list(), 'GET', { user, query: { slug: anna.slug } })),
        statusOf(await run(list(), 'POST', { user, query: { slug: anna.slug }, body: { werk: w2.slug } })),
        statusOf(await run(one(), 'GET', { user, query: { slug: anna.slug, id: String(placed.hold.id) } })),
        statusOf(await run(queue(), 'GET', { user, query: { slug: w.slug } })),
        statusOf(
          await run(one(), 'DELETE', { user, query: { slug: anna.slug, id: String(placed.hold.id) } }),
        ),
      ];
      assert.deepEqual(statuses, [
        ok ? 200 : 403,
        ok ? 201 : 403,
        ok ? 200 : 403,
        who === 'staff' ? 200 : 403,
        ok ? 204 : 403,
      ]);
      // A refused write changed nothing.
      const after = await stores.holds.holdsOf(anna.id);
      assert.equal(after.items.length, ok ? 1 : 1, `${who}: holds left`);
      assert.equal(after.items[0]?.werk.id, ok ? w2.id : w.id);
      // Unknown persons: 403 for non-staff, 404 for staff.
      const unknown = statusOf(await run(list(), 'GET', { user, query: { slug: 'niemand-da' } }));
      assert.equal(unknown, who === 'staff' ? 404 : 403);
    });
  }
});

test('placing: 201 with Location, 409 when a copy is free or placed twice, 422 for no work; 303 for a form', async () => {
  const anna = await member();
  const free = await stores.works.create({ titel: `Frei ${++serial}`, exemplare: 1 });
  await ensureCopies(database.db, free.id, 1);
  const refused = await run(list(), 'POST', {
    user: anna.user,
    query: { id: String(anna.id) },
    body: { werk: `/werke/${free.slug}` },
  });
  assert.equal(statusOf(refused), 409);
  assert.equal(codeOf(refused), 'SHELFMARK_COPY_AVAILABLE');
  const w = await lentWork();
  const created = await run(list(), 'POST', {
    user: anna.user,
    query: { id: String(anna.id) },
    body: { werk: `/werke/${w.slug}` },
  });
  assert.equal(statusOf(created), 201);
  assert.ok(!(created instanceof HttpError) && created.type === 'representation');
  assert.match(created.location ?? '', new RegExp(`^/personen/${anna.slug}/vormerkungen/\\d+$`));
  const twice = await run(list(), 'POST', {
    user: anna.user,
    query: { slug: anna.slug },
    body: { werk: w.slug },
  });
  assert.equal(statusOf(twice), 409);
  assert.equal(codeOf(twice), 'SHELFMARK_CONFLICT');
  assert.equal(
    statusOf(
      await run(list(), 'POST', {
        user: anna.user,
        query: { slug: anna.slug },
        body: { werk: 'gibt-es-nicht' },
      }),
    ),
    422,
  );
  assert.equal(
    statusOf(await run(list(), 'POST', { user: anna.user, query: { slug: anna.slug }, body: {} })),
    422,
  );
  const w2 = await lentWork();
  const form = await run(list(), 'POST', {
    user: anna.user,
    format: 'html',
    query: { id: String(anna.id) },
    body: { werk: w2.slug },
  });
  assert.ok(!(form instanceof HttpError) && form.type === 'redirect');
  assert.equal(form.status, 303);
  assert.equal(form.path, `/personen/${anna.slug}/vormerkungen`);
});

test('cancelling: 204, then the hold answers 410 and leaves the list', async () => {
  const anna = await member();
  const w = await lentWork();
  const placed = await stores.holds.place(anna.id, { id: w.id });
  assert.ok(placed.ok);
  const query = { slug: anna.slug, id: String(placed.hold.id) };
  assert.equal(statusOf(await run(one(), 'DELETE', { user: anna.user, query })), 204);
  assert.equal(statusOf(await run(one(), 'GET', { user: anna.user, query })), 410);
  assert.equal(statusOf(await run(one(), 'DELETE', { user: anna.user, query })), 410);
  assert.equal(
    statusOf(await run(one(), 'GET', { user: anna.user, query: { slug: anna.slug, id: '987654' } })),
    404,
  );
});

test('every representation is valid against its schema; the HTML pages have their forms', async () => {
  const [anna, ben] = [await member(), await member()];
  const w = await lentWork();
  const a = await stores.holds.place(anna.id, { id: w.id });
  const b = await stores.holds.place(ben.id, { id: w.id });
  assert.ok(a.ok && b.ok);
  const cases = [
    ['holds', list(), { slug: anna.slug }, 'vormerkungen'],
    ['hold', one(), { slug: ben.slug, id: String(b.hold.id) }, 'vormerkung'],
    ['hold-queue', queue(), { slug: w.slug }, 'warteschlange'],
  ] as const;
  for (const [schema, resource, query] of cases) {
    const outcome = await run(resource, 'GET', { user: STAFF, query });
    assert.ok(!(outcome instanceof HttpError));
    assert.equal(jsonErrors(schema, render(outcome, 'json')), '', schema);
    assert.equal(await xmlErrors(schema, render(outcome, 'xml') as string), '', schema);
  }
  const json = render(
    (await run(one(), 'GET', {
      user: ben.user,
      query: { slug: ben.slug, id: String(b.hold.id) },
    })) as Outcome,
    'json',
  );
  const body = json as Record<string, unknown>;
  assert.equal(body.url, `https://library.example/personen/${ben.slug}/vormerkungen/${b.hold.id}`);
  assert.deepEqual(body.person, {
    name: `Leserin ${ben.user.username.replace('l', 'Nr ')}`,
    url: `https://library.example/personen/${ben.slug}`,
  });
  assert.deepEqual(
    [body.status, body.position, body.signatur, body.bereitSeit, body.abholbarBis],
    ['wartend', 2, null, null, null],
  );
  const page = render(
    (await run(list(), 'GET', { user: anna.user, format: 'html', query: { slug: anna.slug } })) as Outcome,
    'html',
    fakeContext({ format: 'html', user: anna.user }),
  ) as string;
  assert.match(page, /<h1>Vormerkungen von Leserin Nr \d+<\/h1>/);
  assert.match(page, /Wartend – Platz 1 in der Warteschlange/);
  assert.match(page, /<label for="werk">Werk \(Adresse oder Kurzname, z\. B\. faust\)<\/label>/);
  assert.match(page, /<button type="submit">Vormerken<\/button>/);
  assert.match(page, /name="_method" value="DELETE"/);
  assert.match(page, /name="_csrf" value="fake-csrf-token"/);
  assert.match(page, />Vormerkung löschen<\/button>/);
});

test('the hold pages pass the Nu HTML checker', skipUnless('java'), async () => {
  const [anna, ben] = [await member(), await member()];
  const w = await lentWork();
  const a = await stores.holds.place(anna.id, { id: w.id });
  assert.ok(a.ok && (await stores.holds.place(ben.id, { id: w.id })).ok);
  const html = { format: 'html' as const };
  const pages = {
    holds: await run(list(), 'GET', { ...html, user: anna.user, query: { slug: anna.slug } }),
    hold: await run(one(), 'GET', {
      ...html,
      user: anna.user,
      query: { slug: anna.slug, id: String(a.hold.id) },
    }),
    queue: await run(queue(), 'GET', { ...html, user: STAFF, query: { slug: w.slug }, lang: 'en' }),
  };
  const report = await htmlReport(
    Object.entries(pages).map(([name, outcome]) => {
      assert.ok(!(outcome instanceof HttpError) && outcome.type === 'representation', name);
      return {
        name,
        html: renderRepresentation(
          outcome.representation as Representation<unknown>,
          fakeContext({ ...html, user: anna.user }),
        ),
      };
    }),
  );
  assert.equal(report, '');
});

test('the work page offers "Vormerken" to a logged-in member only when no copy is free; staff get the queue', () => {
  const member: Principal = { id: 5, username: 'anna', role: 'member' };
  const page = (verfuegbar: number, user: Principal | null) =>
    holdButton({ slug: 'faust', verfuegbar }, fakeContext({ format: 'html', user })).text;
  assert.match(page(0, member), /<form class="place-hold" method="post" action="\/vormerkungen\?id=5">/);
  assert.match(page(0, member), /<input type="hidden" name="werk" value="faust" \/>/);
  assert.match(page(0, member), /<button type="submit">Vormerken<\/button>/);
  assert.equal(page(1, member), '');
  // Anonymous: no form, a hint that signing in allows a hold (issue 20).
  assert.doesNotMatch(page(0, null), /<form/);
  assert.match(page(0, null), /Anmelden, um das Werk vorzumerken/);
  assert.equal(page(1, null), '');
  assert.match(page(1, STAFF), /href="\/werke\/faust\/vormerkungen"/);
});
