// The access matrix of issue 4 over real HTTP (docs/access.md): who may read anna's loans, borrow
// and return for her, and write persons and works — {anonymous, anna, ben, staff} × every
// action, once with a session cookie from the log-in form (Origin + X-CSRF-Token on unsafe
// requests) and once with HTTP Basic. Each cell must answer exactly its status; a refused write
// must change nothing, and a 403 must come from the access rules (SHELFMARK_FORBIDDEN), not
// from a failed CSRF check that would hide them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ANONYMOUS,
  APP_ORIGIN,
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
}

interface Row {
  readonly action: string;
  readonly expected: Readonly<Record<Who, number>>;
  readonly send: (cell: Cell) => { method: string; path: string; body?: unknown };
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
      // Returns are checked in by staff (SHELFMARK_MEMBER_RETURNS off, ADR 0061).
      action: "DELETE (return) anna's loan",
      expected: { anonymous: 403, anna: 403, ben: 403, personal: 204 },
      send: (c) => ({ method: 'DELETE', path: c.loanPath }),
      async verify(c, got) {
        assert.equal(await status(c.loanPath), got === 204 ? 410 : 200);
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
  ];

  before(async () => {
    server = await startShelfmark('shelfmark-access-');
    staff = await logIn(server.base, 'personal');
    annaId = (await logIn(server.base, 'anna')).personId;
  });
  after(() => server?.dispose());

  const newWork = async (titel: string, exemplare: number): Promise<string> => {
    const work = await asStaff('POST', '/werke', { titel, exemplare });
    assert.equal(work.status, 201, `staff creates ${titel}`);
    return locationPath(work).replace('/werke/', '');
  };

  /** Fresh data for one cell (anna may hold one copy of a work at a time), made by staff. */
  async function prepareCell(mode: Mode, who: Who): Promise<Cell> {
    const tag = `${mode}-${who}`;
    const borrowSlug = await newWork(`Ausleihbar ${tag}`, 2);
    const loanedSlug = await newWork(`Verliehen ${tag}`, 2);
    const loan = await asStaff('POST', `/ausleihen/${annaId}`, { werk: `/werke/${loanedSlug}` });
    assert.equal(loan.status, 201, 'staff lends anna a copy');
    const person = await asStaff('POST', '/personen', { vorname: 'Ersetzt', nachname: tag });
    assert.equal(person.status, 201);
    return {
      mode,
      who,
      tag,
      annaId,
      borrowSlug,
      loanPath: locationPath(loan),
      loanedSlug,
      personSlug: locationPath(person).replace('/personen/', ''),
      ownWorkSlug: await newWork(`Eigenes ${tag}`, 1),
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
          const { method, path, body } = row.send(cell);
          const response = await request(server.base, credentials, method, path, body);
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
