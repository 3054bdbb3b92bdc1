// Renders every HTML page of the catalogue with fake data — for the Nu checker test and for
// looking at the pages by hand: `node test/kit/catalogue/sample-pages.ts /tmp/shelfmark-pages`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from '../../../src/http/errors/index.ts';
import { html } from '../../../src/http/representation/markup.ts';
import { homeResource } from '../../../src/catalogue/home/index.ts';
import { createErrorPage } from '../../../src/catalogue/layout/index.ts';
import type { Person, Work } from '../../../src/catalogue/model.ts';
import { personResource, personsResource } from '../../../src/catalogue/persons/index.ts';
import { workResource, worksResource } from '../../../src/catalogue/works/index.ts';
import { sessionErrorSlots, sessionResource } from '../../../src/catalogue/session/index.ts';
import { serverStatusResource } from '../../../src/catalogue/server-status/index.ts';
import { fakeContext, fakePersonStore, fakeWorkStore, faust, goethe, renderText } from './fakes.ts';
import { SAMPLE_STATUS, STAFF } from './server-status.ts';

const persons: Person[] = [
  goethe,
  {
    ...goethe,
    id: 2,
    slug: 'schiller',
    vorname: 'Friedrich',
    nachname: 'Schiller',
    username: null,
    image: null,
  },
];
const works: Work[] = [
  faust,
  { ...faust, id: 11, slug: 'werther', titel: 'Die Leiden des jungen Werthers', jahr: 1774, verfuegbar: 0 },
  { ...faust, id: 12, slug: 'anonym', titel: 'Ein Werk ohne Jahr', jahr: null, personen: [] },
];

const LOGGED_IN = { id: 1, username: 'goethe', role: 'member' as const };

export async function samplePages(): Promise<Record<string, string>> {
  const ps = fakePersonStore(persons);
  const ws = fakeWorkStore(works);
  const ctx = (query = '', lang: 'de' | 'en' = 'de') => fakeContext({ query, lang });
  const errorPage = createErrorPage({ forbidden: () => html`<p>Login form goes here</p>` });
  const problem = (status: number, extra: Partial<Problem> = {}): Problem => ({
    type: 'about:blank',
    title: 'Title',
    status,
    code: 'X',
    ...extra,
  });
  return {
    home: renderText(await homeResource(ws).methods.GET!(ctx()), 'html'),
    'home-en': renderText(await homeResource(ws).methods.GET!(ctx('', 'en')), 'html'),
    persons: renderText(await personsResource(ps).methods.GET!(ctx('anzahl=1')), 'html'),
    'persons-empty': renderText(await personsResource(ps).methods.GET!(ctx('q=zzz')), 'html'),
    person: renderText(await personResource(ps).methods.GET!(ctx('slug=goethe')), 'html'),
    'person-no-account': renderText(
      await personResource(ps).methods.GET!(ctx('slug=schiller', 'en')),
      'html',
    ),
    works: renderText(await worksResource(ws).methods.GET!(ctx('q=e&anzahl=1&nach=1')), 'html'),
    work: renderText(await workResource(ws).methods.GET!(ctx('slug=werther')), 'html'),
    'work-no-year': renderText(await workResource(ws).methods.GET!(ctx('slug=anonym')), 'html'),
    'person-staff': renderText(
      await personResource(ps).methods.GET!(fakeContext({ query: 'slug=goethe', user: STAFF })),
      'html',
    ),
    'person-delete': renderText(
      await personResource(ps).methods.GET!(fakeContext({ query: 'slug=goethe&loeschen=', user: STAFF })),
      'html',
    ),
    'work-delete': renderText(
      await workResource(ws).methods.GET!(fakeContext({ query: 'slug=werther&loeschen=', user: STAFF })),
      'html',
    ),
    session: renderText(await sessionResource(ps).methods.GET!(ctx('zurueck=/werke')), 'html'),
    'session-logged-in': renderText(
      await sessionResource(ps).methods.GET!(fakeContext({ user: LOGGED_IN, csrfToken: 'abc.def' })),
      'html',
    ),
    'server-status': renderText(
      await serverStatusResource({ serverStatus: async () => SAMPLE_STATUS }).methods.GET!(
        fakeContext({ user: STAFF, csrfToken: 'abc.def' }),
      ),
      'html',
    ),
    'error-401-login': createErrorPage(sessionErrorSlots)(problem(401), { ...ctx(), path: '/sitzung' }).text,
    'error-403-login': createErrorPage(sessionErrorSlots)(problem(403), {
      ...fakeContext({ user: LOGGED_IN, csrfToken: 'abc.def', lang: 'en' }),
      path: '/ausleihen/2',
    }).text,
    'error-404': errorPage(problem(404, { detail: 'Keine Person „x“.' }), ctx()).text,
    'error-403': errorPage(problem(403), ctx('', 'en')).text,
    'error-422': errorPage(problem(422, { errors: [{ field: 'titel', detail: 'fehlt' }] }), ctx()).text,
    'error-406': errorPage(
      problem(406, { available: [{ type: 'application/json', label: 'JSON', url: '/werke.json' }] }),
      ctx(),
    ).text,
    'error-500': errorPage(
      problem(500, {
        exception: {
          class: 'TypeError',
          message: 'x <y>',
          file: '/a.ts',
          line: 3,
          stack: 'at a',
          source: '> 3 | x',
        },
      }),
      ctx(),
    ).text,
  };
}

export async function writeSamplePages(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const [name, text] of Object.entries(await samplePages())) {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, text);
    files.push(file);
  }
  return files;
}

if (import.meta.main) {
  const dir = process.argv[2] ?? '/tmp/shelfmark-pages';
  for (const f of await writeSamplePages(dir)) console.log(f);
}
