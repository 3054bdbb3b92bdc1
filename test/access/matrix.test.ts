// The access matrix of issue 4 over real HTTP (docs/access.md): who may read anna's loans, borrow
// and return for her, write persons and works, and see and change accounts and passwords
// (ADR 0063) — {anonymous, anna, ben, staff} × every action, once with a session cookie from the
// log-in form (Origin + X-CSRF-Token on unsafe requests) and once with HTTP Basic. Each cell must
// answer exactly its status; a refused write must change nothing, and a 403 must come from the
// access rules (SHELFMARK_FORBIDDEN), not from a failed CSRF check that would hide them.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import {
  ANONYMOUS,
  APP_ORIGIN,
  basicAuth,
  basicCredentials,
  locationPath,
  logIn,
  request,
  startShelfmark,
  type Credentials,
  type Session,
  type Shelfmark,
} from './server.ts';

type Who = 'anonymous' | 'anna' | 'ben' | 'personal';
const WHO: readonly Who[] = ['anonymous', 'anna', 'ben', 'personal'];
type Mode = 'session' | 'basic';

/** What one row's request needs; made fresh per (mode, who), so every cell acts on its own data. */
interface Cell {
  readonly mode: Mode;
  readonly who: Who;
  /** Unique per cell, for names of things the cell creates. */
  readonly tag: string;
  readonly annaId: number;
  /** A work (2 copies) anna holds no copy of, to borrow. */
  readonly borrowSlug: string;
  /** A loan of anna's, made for this cell, and the work it lends. */
  readonly loanPath: string;
  readonly loanedSlug: string;
  /** A person and a work made for this cell, to be replaced or deleted. */
  readonly personSlug: string;
  readonly ownWorkSlug: string;
  /** anna's person slug (her account: `/personen/{slug}/konto`). */
  readonly annaSlug: string;
  /** A person without an account (staff create one), and one with an account (to lock, delete). */
  readonly noAccountSlug: string;
  readonly accountSlug: string;
  /** Another loan of anna's, and the barcode of the copy it lends (for the desk's check-in). */
  readonly checkInLoanPath: string;
  readonly checkInBarcode: string;
  /** A hold of anna's on a work with no free copy, that work, and another work with no free copy. */
  readonly holdPath: string;
  readonly heldSlug: string;
  readonly holdableSlug: string;
}

interface Row {
  readonly action: string;
  readonly expected: Readonly<Record<Who, number>>;
  readonly send: (cell: Cell) => { method: string; path: string; body?: unknown; type?: string };
  /** Checks the state afterwards (as staff), given the status the cell got. */
  readonly verify: (cell: Cell, status: number, response: Response) => Promise<void>;
}

const OWNER_OR_STAFF = { anonymous: 403, anna: 200, ben: 403, personal: 200 } as const;
const IMAGE = 'https://bilder.example/ersetzt.png';
const STAFF_ONLY = (ok: number) => ({ anonymous: 403, anna: 403, ben: 403, personal: ok }) as const;

describe('access matrix over real HTTP: session cookie and Basic', () => {
  let server: Shelfmark;
  let staff: Session;
  let annaId: number;
  let annaSlug: string;
  let annasHash: string;
  /** anna's password as the demo has it ("anna", shorter than the rule allows a new one): by SQL. */
  const database = () => {
    const db = new DatabaseSync(server.databaseFile);
    db.exec('PRAGMA busy_timeout = 5000');
    return db;
  };
  const readAnnasHash = () => {
    const db = database();
    try {
      const row = db.prepare("select password_hash from accounts where username = 'anna'").get();
      return String(row?.password_hash);
    } finally {
      db.close();
    }
  };
  const restoreAnnasPassword = () => {
    const db = database();
    try {
      db.prepare("update accounts set password_hash = ? where username = 'anna'").run(annasHash);
    } finally {
      db.close();
    }
  };
  let benId: number;
  const asStaff = (method: string, path: string, body?: unknown) =>
    request(server.base, staff, method, path, body);
  const status = async (path: string) => (await asStaff('GET', path)).status;
  const json = async <T>(path: string): Promise<T> => {
    const response = await asStaff('GET', path);
    assert.equal(response.status, 200, path);
    return (await response.json()) as T;
  };
  const available = async (slug: string) => (await json<{ verfuegbar: number }>(`/werke/${slug}`)).verfuegbar;
  let availableBefore = 0;

  const rows: Row[] = [
    {
      // Copies are public (ADR 0058); who has one is shown to staff only.
      action: 'GET the copies of a work lent to anna',
      expected: { anonymous: 200, anna: 200, ben: 200, personal: 200 },
      send: (c) => ({ method: 'GET', path: `/werke/${c.loanedSlug}/exemplare` }),
      async verify(c, got, response) {
        assert.equal(got, 200);
        const body = (await response.json()) as { exemplar: { status: string; ausgeliehenVon?: unknown }[] };
        assert.deepEqual(body.exemplar.map((e) => e.status).sort(), ['ausgeliehen', 'verfuegbar']);
        const named = body.exemplar.some((e) => e.ausgeliehenVon !== undefined);
        assert.equal(named, c.who === 'personal', 'the borrower is shown to staff only');
      },
    },
    {
      action: 'GET one copy',
      expected: { anonymous: 200, anna: 200, ben: 200, personal: 200 },
      send: (c) => ({ method: 'GET', path: `/werke/${c.ownWorkSlug}/exemplare/1` }),
      async verify(_c, got, response) {
        assert.equal(got, 200);
        const body = (await response.json()) as { nummer: number; status: string };
        assert.deepEqual([body.nummer, body.status], [1, 'verfuegbar']);
      },
    },
    {
      action: "GET anna's loan list",
      expected: OWNER_OR_STAFF,
      send: (c) => ({ method: 'GET', path: `/ausleihen/${c.annaId}` }),
      async verify(_c, got, response) {
        if (got !== 200) return;
        const body = (await response.json()) as { person: { name: string }; ausleihe: unknown[] };
        assert.equal(body.person.name, 'Anna Berger');
        assert.ok(body.ausleihe.length > 0);
      },
    },
    {
      action: "GET one of anna's loans",
      expected: OWNER_OR_STAFF,
      send: (c) => ({ method: 'GET', path: c.loanPath }),
      async verify(c, got, response) {
        if (got !== 200) return;
        const body = (await response.json()) as { werk: { url: string } };
        assert.match(body.werk.url, new RegExp(`/werke/${c.loanedSlug}$`));
      },
    },
    {
      action: 'POST a borrow for anna',
      expected: { anonymous: 403, anna: 201, ben: 403, personal: 201 },
      send: (c) => ({
        method: 'POST',
        path: `/ausleihen/${c.annaId}`,
        body: { werk: `/werke/${c.borrowSlug}` },
      }),
      async verify(c, got, response) {
        const now = await available(c.borrowSlug);
        if (got === 201) {
          assert.match(locationPath(response), new RegExp(`^/ausleihen/${c.annaId}/\\d+$`));
          assert.equal(await status(locationPath(response)), 200, 'the new loan exists');
          assert.equal(now, availableBefore - 1, 'one copy fewer available');
        } else assert.equal(now, availableBefore, 'no copy was lent');
      },
    },
    {
      action: "GET anna's holds",
      expected: OWNER_OR_STAFF,
      send: (c) => ({ method: 'GET', path: `/personen/${c.annaSlug}/vormerkungen` }),
      async verify(c, got, response) {
        if (got !== 200) return;
        const body = (await response.json()) as { vormerkung: { url: string }[] };
        assert.ok(body.vormerkung.some((h) => h.url.endsWith(c.holdPath)));
      },
    },
    {
      action: "GET one of anna's holds",
      expected: OWNER_OR_STAFF,
      send: (c) => ({ method: 'GET', path: c.holdPath }),
      async verify(c, got, response) {
        if (got !== 200) return;
        const body = (await response.json()) as { werk: { url: string }; status: string; position: number };
        assert.match(body.werk.url, new RegExp(`/werke/${c.heldSlug}$`));
        assert.deepEqual([body.status, body.position], ['wartend', 1]);
      },
    },
    {
      action: "GET a work's queue of holds",
      expected: STAFF_ONLY(200),
      send: (c) => ({ method: 'GET', path: `/werke/${c.heldSlug}/vormerkungen` }),
      async verify(_c, got, response) {
        if (got === 200)
          assert.equal(((await response.json()) as { vormerkung: unknown[] }).vormerkung.length, 1);
      },
    },
    {
      action: 'POST a hold for anna',
      expected: { anonymous: 403, anna: 201, ben: 403, personal: 201 },
      send: (c) => ({
        method: 'POST',
        path: `/personen/${c.annaSlug}/vormerkungen`,
        body: { werk: `/werke/${c.holdableSlug}` },
      }),
      async verify(c, got, response) {
        const queue = await json<{ vormerkung: unknown[] }>(`/werke/${c.holdableSlug}/vormerkungen`);
        assert.equal(queue.vormerkung.length, got === 201 ? 1 : 0);
        if (got === 201)
          assert.match(locationPath(response), new RegExp(`^/personen/${c.annaSlug}/vormerkungen/\\d+$`));
      },
    },
    {
      action: "DELETE (cancel) anna's hold",
      expected: { anonymous: 403, anna: 204, ben: 403, personal: 204 },
      send: (c) => ({ method: 'DELETE', path: c.holdPath }),
      async verify(c, got) {
        assert.equal(await status(c.holdPath), got === 204 ? 410 : 200);
      },
    },
    {
      action: "POST a renewal of anna's loan",
      expected: OWNER_OR_STAFF,
      send: (c) => ({ method: 'POST', path: `${c.loanPath}/verlaengerung` }),
      async verify(c, got) {
        const loan = await json<{ verlaengerungen?: number }>(c.loanPath);
        assert.equal(loan.verlaengerungen, got === 200 ? 1 : 0);
      },
    },
    {
      // Returns are checked in by staff (SHELFMARK_MEMBER_RETURNS off, ADR 0061).
      action: "DELETE (return) anna's loan",
      expected: { anonymous: 403, anna: 403, ben: 403, personal: 204 },
      send: (c) => ({ method: 'DELETE', path: c.loanPath }),
      async verify(c, got) {
        assert.equal(await status(c.loanPath), got === 204 ? 410 : 200);
      },
    },
    {
      action: "GET the desk's check-in page",
      expected: STAFF_ONLY(200),
      send: () => ({ method: 'GET', path: '/rueckgabe' }),
      async verify(_c, got, response) {
        if (got === 200)
          assert.deepEqual(await response.json(), {
            barcode: null,
            signatur: null,
            ausleihe: null,
            abholregal: null,
          });
      },
    },
    {
      action: "GET the desk's lending page",
      expected: STAFF_ONLY(200),
      send: () => ({ method: 'GET', path: '/theke' }),
      async verify(_c, got, response) {
        if (got === 200)
          assert.deepEqual(await response.json(), { person: null, ausleihen: [], treffer: [] });
      },
    },
    {
      // Access comes first: only staff learn that the card names no account.
      action: 'POST a loan at the desk for an unknown card',
      expected: STAFF_ONLY(422),
      send: (c) => ({ method: 'POST', path: '/theke', body: { ausweis: `KEIN-${c.tag}`, barcode: 'X' } }),
      async verify(_c, got, response) {
        if (got === 422)
          assert.equal(((await response.json()) as { code: string }).code, 'SHELFMARK_VALIDATION_FAILED');
      },
    },
    {
      action: "POST a check-in of the copy of anna's loan (its barcode)",
      expected: STAFF_ONLY(200),
      send: (c) => ({ method: 'POST', path: '/rueckgabe', body: { barcode: c.checkInBarcode } }),
      async verify(c, got, response) {
        if (got === 200) {
          const body = (await response.json()) as { ausleihe: { url: string } };
          assert.equal(new URL(body.ausleihe.url).pathname, c.checkInLoanPath);
        }
        assert.equal(await status(c.checkInLoanPath), got === 200 ? 410 : 200);
      },
    },
    {
      // Access comes first: only staff learn that the barcode names no copy.
      action: 'POST a check-in of an unknown barcode',
      expected: STAFF_ONLY(422),
      send: (c) => ({ method: 'POST', path: '/rueckgabe', body: { barcode: `KEIN-${c.tag}` } }),
      async verify(_c, got, response) {
        if (got === 422)
          assert.equal(((await response.json()) as { code: string }).code, 'SHELFMARK_VALIDATION_FAILED');
      },
    },
    {
      action: 'POST a person',
      expected: STAFF_ONLY(201),
      send: (c) => ({ method: 'POST', path: '/personen', body: { vorname: 'Matrix', nachname: c.tag } }),
      async verify(c, got, response) {
        const slug = `/personen/matrix-${c.tag}`;
        if (got === 201) assert.equal(locationPath(response), slug);
        assert.equal(await status(slug), got === 201 ? 200 : 404);
      },
    },
    {
      action: 'PUT a person',
      expected: STAFF_ONLY(200),
      send: (c) => ({
        method: 'PUT',
        path: `/personen/${c.personSlug}`,
        body: { vorname: 'Ersetzt', nachname: c.tag, image: IMAGE },
      }),
      async verify(c, got) {
        // The name (and so the slug) stays; only the portrait changes.
        const body = await json<{ vorname: string; image: string }>(`/personen/${c.personSlug}`);
        assert.equal(body.vorname, 'Ersetzt');
        assert.equal(body.image === IMAGE, got === 200, `image ${body.image}`);
      },
    },
    {
      action: 'DELETE a person',
      expected: STAFF_ONLY(204),
      send: (c) => ({ method: 'DELETE', path: `/personen/${c.personSlug}` }),
      async verify(c, got) {
        assert.equal(await status(`/personen/${c.personSlug}`), got === 204 ? 410 : 200);
      },
    },
    {
      action: 'POST a copy',
      expected: STAFF_ONLY(201),
      send: (c) => ({
        method: 'POST',
        path: `/werke/${c.ownWorkSlug}/exemplare`,
        body: { signatur: `Mx ${c.tag}`, barcode: `MX-${c.tag}`, standort: 'Magazin' },
      }),
      async verify(c, got, response) {
        if (got === 201) assert.equal(locationPath(response), `/werke/${c.ownWorkSlug}/exemplare/2`);
        assert.equal(await status(`/werke/${c.ownWorkSlug}/exemplare/2`), got === 201 ? 200 : 404);
      },
    },
    {
      action: 'PUT a copy',
      expected: STAFF_ONLY(200),
      send: (c) => ({
        method: 'PUT',
        path: `/werke/${c.ownWorkSlug}/exemplare/1`,
        body: { signatur: `Ersetzt ${c.tag}`, barcode: `MY-${c.tag}`, standort: 'Lesesaal', vermisst: false },
      }),
      async verify(c, got) {
        const body = await json<{ standort: string }>(`/werke/${c.ownWorkSlug}/exemplare/1`);
        assert.equal(body.standort, got === 200 ? 'Lesesaal' : 'Freihand');
      },
    },
    {
      action: 'DELETE (withdraw) a copy',
      expected: STAFF_ONLY(204),
      send: (c) => ({ method: 'DELETE', path: `/werke/${c.ownWorkSlug}/exemplare/1` }),
      async verify(c, got) {
        assert.equal(await status(`/werke/${c.ownWorkSlug}/exemplare/1`), got === 204 ? 410 : 200);
      },
    },
    {
      action: 'POST a work',
      expected: STAFF_ONLY(201),
      send: (c) => ({ method: 'POST', path: '/werke', body: { titel: `Matrixwerk ${c.tag}`, exemplare: 1 } }),
      async verify(c, got, response) {
        const slug = `/werke/matrixwerk-${c.tag}`;
        if (got === 201) assert.equal(locationPath(response), slug);
        assert.equal(await status(slug), got === 201 ? 200 : 404);
      },
    },
    {
      action: 'PUT a work',
      expected: STAFF_ONLY(200),
      send: (c) => ({
        method: 'PUT',
        path: `/werke/${c.ownWorkSlug}`,
        body: { titel: `Eigenes ${c.tag}`, exemplare: 7 },
      }),
      async verify(c, got) {
        const body = await json<{ exemplare: number }>(`/werke/${c.ownWorkSlug}`);
        // Staff added a copy and withdrew one before (the copy rows): 1 either way, unless replaced.
        assert.equal(body.exemplare, got === 200 ? 7 : 1);
      },
    },
    {
      action: 'DELETE a work',
      expected: STAFF_ONLY(204),
      send: (c) => ({ method: 'DELETE', path: `/werke/${c.ownWorkSlug}` }),
      async verify(c, got) {
        assert.equal(await status(`/werke/${c.ownWorkSlug}`), got === 204 ? 410 : 200);
      },
    },
    // Accounts (ADR 0063): anna's account and password are hers and staff's; the rest is staff's.
    {
      action: "GET anna's account",
      expected: OWNER_OR_STAFF,
      send: (c) => ({ method: 'GET', path: `/personen/${c.annaSlug}/konto` }),
      async verify(_c, got, response) {
        if (got === 200) assert.equal(((await response.json()) as { username: string }).username, 'anna');
      },
    },
    {
      action: "GET anna's password resource",
      expected: OWNER_OR_STAFF,
      send: (c) => ({ method: 'GET', path: `/personen/${c.annaSlug}/konto/passwort` }),
      async verify(_c, got, response) {
        if (got === 200) assert.ok(((await response.json()) as { geaendert: string }).geaendert);
      },
    },
    {
      action: 'PUT (create) the account of a person without one',
      expected: STAFF_ONLY(201),
      send: (c) => ({
        method: 'PUT',
        path: `/personen/${c.noAccountSlug}/konto`,
        body: { username: `neu-${c.tag}`, rolle: 'member', gesperrt: false, passwort: 'matrix-passwort' },
      }),
      async verify(c, got) {
        assert.equal(await status(`/personen/${c.noAccountSlug}/konto`), got === 201 ? 200 : 404);
      },
    },
    {
      action: 'PATCH (lock) an account',
      expected: STAFF_ONLY(200),
      send: (c) => ({
        method: 'PATCH',
        path: `/personen/${c.accountSlug}/konto`,
        body: { gesperrt: true },
        type: 'application/merge-patch+json',
      }),
      async verify(c, got) {
        const account = await json<{ gesperrt: boolean }>(`/personen/${c.accountSlug}/konto`);
        assert.equal(account.gesperrt, got === 200);
      },
    },
    {
      action: 'DELETE an account',
      expected: STAFF_ONLY(204),
      send: (c) => ({ method: 'DELETE', path: `/personen/${c.accountSlug}/konto` }),
      async verify(c, got) {
        assert.equal(await status(`/personen/${c.accountSlug}/konto`), got === 204 ? 404 : 200);
      },
    },
    {
      // Last: anna's own change ends the cell's other anna sessions (ADR 0063). Staff reset it
      // without the old password (which they may send; it is not asked of them).
      action: "PUT anna's password",
      expected: { anonymous: 403, anna: 204, ben: 403, personal: 204 },
      send: (c) => ({
        method: 'PUT',
        path: `/personen/${c.annaSlug}/konto/passwort`,
        body: { altesPasswort: 'anna', neuesPasswort: `neu-${c.tag}` },
      }),
      async verify(c, got) {
        const basic = async (password: string) =>
          (
            await fetch(`${server.base}/sitzung.json`, {
              headers: { authorization: basicAuth('anna', password) },
            })
          ).status;
        assert.equal(await basic(`neu-${c.tag}`), got === 204 ? 200 : 401);
        if (got === 204) restoreAnnasPassword();
        assert.equal(await basic('anna'), 200, "anna's own password again, for the next cells");
      },
    },
  ];

  before(async () => {
    server = await startShelfmark('shelfmark-access-');
    staff = await logIn(server.base, 'personal');
    const anna = await logIn(server.base, 'anna');
    annaId = anna.personId;
    const who = (await (await fetch(`${server.base}/sitzung.json`, { headers: anna.read })).json()) as {
      person: { url: string };
    };
    annaSlug = new URL(who.person.url).pathname.replace('/personen/', '');
    annasHash = readAnnasHash();
    benId = (await logIn(server.base, 'ben')).personId;
  });
  after(() => server?.dispose());

  const newWork = async (titel: string, exemplare: number): Promise<string> => {
    const work = await asStaff('POST', '/werke', { titel, exemplare });
    assert.equal(work.status, 201, `staff creates ${titel}`);
    return locationPath(work).replace('/werke/', '');
  };

  const newPerson = async (nachname: string): Promise<string> => {
    const person = await asStaff('POST', '/personen', { vorname: 'Matrix', nachname });
    assert.equal(person.status, 201);
    return locationPath(person).replace('/personen/', '');
  };
  const newAccount = async (nachname: string, username: string): Promise<string> => {
    const slug = await newPerson(nachname);
    const account = await asStaff('PUT', `/personen/${slug}/konto`, {
      username,
      rolle: 'member',
      gesperrt: false,
      passwort: 'matrix-passwort',
    });
    assert.equal(account.status, 201, 'staff create an account');
    return slug;
  };

  /** The barcode printed on the work's only copy (what the desk's scanner reads). */
  function barcodeOf(slug: string): string {
    const db = new DatabaseSync(server.databaseFile, { readOnly: true });
    try {
      const row = db
        .prepare(
          'select copies.barcode from copies join works on works.id = copies.work_id where works.slug = ?',
        )
        .get(slug) as { barcode: string } | undefined;
      assert.ok(row, `a copy of ${slug}`);
      return row.barcode;
    } finally {
      db.close();
    }
  }

  /** Fresh data for one cell (anna may hold one copy of a work at a time), made by staff. */
  async function prepareCell(mode: Mode, who: Who): Promise<Cell> {
    const tag = `${mode}-${who}`;
    const borrowSlug = await newWork(`Ausleihbar ${tag}`, 2);
    const loanedSlug = await newWork(`Verliehen ${tag}`, 2);
    const loan = await asStaff('POST', `/ausleihen/${annaId}`, { werk: `/werke/${loanedSlug}` });
    assert.equal(loan.status, 201, 'staff lends anna a copy');
    const person = await asStaff('POST', '/personen', { vorname: 'Ersetzt', nachname: tag });
    assert.equal(person.status, 201);
    const checkInSlug = await newWork(`Zurück ${tag}`, 1);
    const checkInLoan = await asStaff('POST', `/ausleihen/${annaId}`, { werk: `/werke/${checkInSlug}` });
    assert.equal(checkInLoan.status, 201, 'staff lends anna a copy to check in');
    // Two works whose one copy ben has: anna holds the first; the second is for a new hold.
    const heldSlug = await newWork(`Vorgemerkt ${tag}`, 1);
    const holdableSlug = await newWork(`Vormerkbar ${tag}`, 1);
    for (const slug of [heldSlug, holdableSlug])
      assert.equal((await asStaff('POST', `/ausleihen/${benId}`, { werk: slug })).status, 201, 'ben borrows');
    const hold = await asStaff('POST', `/personen/${annaSlug}/vormerkungen`, { werk: heldSlug });
    assert.equal(hold.status, 201, 'staff places a hold for anna');
    return {
      checkInLoanPath: locationPath(checkInLoan),
      checkInBarcode: barcodeOf(checkInSlug),
      holdPath: locationPath(hold),
      heldSlug,
      holdableSlug,
      mode,
      who,
      tag,
      annaId,
      borrowSlug,
      loanPath: locationPath(loan),
      loanedSlug,
      personSlug: locationPath(person).replace('/personen/', ''),
      ownWorkSlug: await newWork(`Eigenes ${tag}`, 1),
      annaSlug,
      noAccountSlug: await newPerson(`Ohne Konto ${tag}`),
      accountSlug: await newAccount(`Mit Konto ${tag}`, `konto-${tag}`),
    };
  }

  const credentialsFor: Record<Mode, (who: Who) => Promise<Credentials>> = {
    session: async (who) => (who === 'anonymous' ? ANONYMOUS : logIn(server.base, who)),
    basic: async (who) => (who === 'anonymous' ? ANONYMOUS : basicCredentials(who)),
  };

  for (const mode of ['session', 'basic'] as const) {
    for (const who of WHO) {
      test(`${mode}: ${who}`, async () => {
        const credentials = await credentialsFor[mode](who);
        const cell = await prepareCell(mode, who);
        const failures: string[] = [];
        for (const row of rows) {
          availableBefore = await available(cell.borrowSlug);
          const { method, path, body, type } = row.send(cell);
          const response = await request(server.base, credentials, method, path, body, type);
          const expected = row.expected[who];
          if (response.status !== expected) {
            failures.push(
              `${row.action}: expected ${expected}, got ${response.status} ${await response.text()}`,
            );
            continue;
          }
          if (response.status === 403) {
            const problem = (await response.json()) as { code?: string };
            assert.equal(problem.code, 'SHELFMARK_FORBIDDEN', `${row.action}: refused by the access rules`);
          }
          await row.verify(cell, response.status, response);
        }
        assert.deepEqual(failures, [], `${mode} ${who}`);
      });
    }
  }

  test('the session cells pass because of the CSRF token and origin: without them staff gets 403', async () => {
    const without: [string, Record<string, string>][] = [
      ['no X-CSRF-Token', { cookie: staff.cookie, origin: server.base }],
      [
        'the token of another session',
        { ...staff.write, 'x-csrf-token': (await logIn(server.base, 'anna')).csrfToken },
      ],
      ['a tampered token', { ...staff.write, 'x-csrf-token': `${staff.csrfToken}x` }],
      ['another origin', { ...staff.write, origin: 'http://evil.example' }],
      ['no Origin at all', { cookie: staff.cookie, 'x-csrf-token': staff.csrfToken }],
    ];
    for (const [why, headers] of without) {
      const response = await request(server.base, { read: headers, write: headers }, 'POST', '/werke', {
        titel: 'Ohne Schutz',
        exemplare: 1,
      });
      assert.equal(response.status, 403, why);
      assert.equal(((await response.json()) as { code: string }).code, 'SHELFMARK_CSRF_FAILED', why);
    }
    assert.equal(await status('/werke/ohne-schutz'), 404, 'nothing was created');
  });

  test('a configured CORS origin writes with the session and its token, and may read the answer', async () => {
    const headers = { ...staff.write, origin: APP_ORIGIN };
    const created = await request(server.base, { read: headers, write: headers }, 'POST', '/werke', {
      titel: 'Von der App',
      exemplare: 1,
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('access-control-allow-origin'), APP_ORIGIN);
    assert.equal(created.headers.get('access-control-allow-credentials'), 'true');
    assert.match(created.headers.get('vary') ?? '', /Origin/);
    const noToken = { cookie: staff.cookie, origin: APP_ORIGIN };
    const refused = await request(server.base, { read: noToken, write: noToken }, 'POST', '/werke', {
      titel: 'Von der App ohne Token',
      exemplare: 1,
    });
    assert.equal(refused.status, 403, 'the token is still required');
    assert.equal(await status('/werke/von-der-app'), 200);
  });
});
