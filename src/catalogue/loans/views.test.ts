// Loan representations: exact XML/JSON shapes, schema validity (xmllint, ajv), the HTML forms,
// and HTML validity (Nu checker).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CoreFormat, Outcome, Representation } from '../../http/resource/types.ts';
import { fakeContext, squash, type FakeContextOptions } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { catalogueRewrites } from '../rewrites.ts';
import { fakeLoanStore, NOW, USERS } from '../../../test/kit/catalogue/loan-fakes.ts';
import { loanResource, loansResource, type LoanResourceOptions } from './resource.ts';
import { parseWerkField } from './werk-field.ts';

const opts = { now: () => NOW };
const store = fakeLoanStore();

async function get(
  resource: 'loans' | 'loan',
  ctx: FakeContextOptions,
  more: LoanResourceOptions = {},
): Promise<Representation<unknown>> {
  const options = { ...opts, ...more };
  const definition = resource === 'loans' ? loansResource(store, options) : loanResource(store, options);
  const outcome: Outcome = await definition.methods.GET!(fakeContext(ctx));
  assert.equal(outcome.type, 'representation');
  if (outcome.type !== 'representation') throw new Error('unreachable');
  return outcome.representation as Representation<unknown>;
}

function render(r: Representation<unknown>, format: CoreFormat, ctx: FakeContextOptions = {}): unknown {
  const c = fakeContext({ ...ctx, format });
  return format === 'json' ? r.view.json(r.model, c) : r.view[format](r.model, c).text;
}

const owner = { user: USERS.owner };
const staff = { user: USERS.staff };

test('a user’s loans in XML and JSON: exact shape, schema-valid', async () => {
  const r = await get('loans', { ...owner, query: 'benutzer=1' });
  assert.equal(r.canonicalPath, '/ausleihen/1');
  assert.equal(r.schema, 'loans');
  // The overdue Effi Briest (due 04-29) blocks borrowing since 14 days later, after the last
  // borrow (05-01): the page's form gave way to a note then, so that is the last change (ADR 0067).
  assert.equal(r.lastModified?.toISOString(), '2024-05-13T10:00:00.000Z');
  assert.equal(r.freshUntil?.toISOString(), '2024-05-29T10:00:00.000Z', 'until Faust falls due');
  const xml = render(r, 'xml') as string;
  assert.equal(
    xml,
    `<ausleihen>
  <person ref="https://library.example/personen/anna-berger">Anna Berger</person>
  <ausleihe ref="https://library.example/ausleihen/1/101">
    <werk ref="https://library.example/werke/effi-briest">Effi Briest &lt;1894&gt;</werk>
    <exemplar ref="https://library.example/werke/effi-briest/exemplare/1">Fon 11 Ef</exemplar>
    <ausgeliehen>2024-04-01T10:00:00.000Z</ausgeliehen>
    <faellig>2024-04-29T10:00:00.000Z</faellig>
    <ueberfaellig>true</ueberfaellig>
    <verlaengerungen>0</verlaengerungen>
  </ausleihe>
  <ausleihe ref="https://library.example/ausleihen/1/100">
    <werk ref="https://library.example/werke/faust">Faust</werk>
    <exemplar ref="https://library.example/werke/faust/exemplare/1">Goe 10 Fa</exemplar>
    <ausgeliehen>2024-05-01T10:00:00.000Z</ausgeliehen>
    <faellig>2024-05-29T10:00:00.000Z</faellig>
    <ueberfaellig>false</ueberfaellig>
    <verlaengerungen>0</verlaengerungen>
  </ausleihe>
</ausleihen>`,
  );
  assert.equal(await xmlErrors('loans', xml), '');
  const json = render(r, 'json');
  assert.equal(jsonErrors('loans', json), '');
  assert.deepEqual(
    (json as { ausleihe: { url: string; ueberfaellig: boolean }[] }).ausleihe.map((l) => [
      l.url,
      l.ueberfaellig,
    ]),
    [
      ['https://library.example/ausleihen/1/101', true],
      ['https://library.example/ausleihen/1/100', false],
    ],
  );
});

test('an empty loan list validates too', async () => {
  const r = await get('loans', { ...staff, query: 'benutzer=2' });
  assert.equal(r.lastModified, undefined);
  assert.equal(await xmlErrors('loans', render(r, 'xml') as string), '');
  assert.equal(jsonErrors('loans', render(r, 'json')), '');
  assert.match(squash(render(r, 'html', staff) as string), /Zurzeit nichts ausgeliehen/);
});

test('one loan in XML and JSON: exact shape, schema-valid', async () => {
  const r = await get('loan', { ...owner, query: 'benutzer=1&id=100' });
  assert.equal(r.canonicalPath, '/ausleihen/1/100');
  const xml = render(r, 'xml') as string;
  assert.equal(
    xml,
    `<ausleihe>
  <person ref="https://library.example/personen/anna-berger">Anna Berger</person>
  <werk ref="https://library.example/werke/faust">Faust</werk>
  <exemplar ref="https://library.example/werke/faust/exemplare/1">Goe 10 Fa</exemplar>
  <ausgeliehen>2024-05-01T10:00:00.000Z</ausgeliehen>
  <faellig>2024-05-29T10:00:00.000Z</faellig>
  <ueberfaellig>false</ueberfaellig>
  <verlaengerungen>0</verlaengerungen>
</ausleihe>`,
  );
  assert.equal(await xmlErrors('loan', xml), '');
  const json = render(r, 'json');
  assert.deepEqual(json, {
    person: { name: 'Anna Berger', url: 'https://library.example/personen/anna-berger' },
    werk: { titel: 'Faust', url: 'https://library.example/werke/faust' },
    exemplar: { signatur: 'Goe 10 Fa', url: 'https://library.example/werke/faust/exemplare/1' },
    ausgeliehen: '2024-05-01T10:00:00.000Z',
    faellig: '2024-05-29T10:00:00.000Z',
    ueberfaellig: false,
    verlaengerungen: 0,
  });
  assert.equal(jsonErrors('loan', json), '');
});

test('the due list: earliest first, overdue marked, schema-valid', async () => {
  const r = await get('loans', staff);
  const xml = render(r, 'xml') as string;
  assert.equal(await xmlErrors('due-loans', xml), '');
  const json = render(r, 'json') as {
    ausleihe: { faellig: string; ueberfaellig: boolean; ausleihen: string }[];
  };
  assert.equal(jsonErrors('due-loans', json), '');
  assert.deepEqual(
    json.ausleihe.map((l) => [l.faellig, l.ueberfaellig, l.ausleihen]),
    [
      ['2024-04-29T10:00:00.000Z', true, 'https://library.example/ausleihen/1'],
      ['2024-05-29T10:00:00.000Z', false, 'https://library.example/ausleihen/1'],
    ],
  );
  const page = squash(render(r, 'html', staff) as string);
  assert.match(page, /<h1>Fällige Ausleihen<\/h1>/);
  assert.match(page, /<tr class="overdue">/);
  assert.match(page, /<strong class="overdue">überfällig<\/strong>/);
  assert.match(page, /<a href="\/ausleihen\/1">Anna Berger<\/a>/);
  // The copy lent: its shelfmark, linked to the copy's URL.
  assert.match(page, /<a class="signatur" href="\/werke\/faust\/exemplare\/1">Goe 10 Fa<\/a>/);
  const none = { ...r, model: { items: [], now: NOW } };
  assert.equal(render(none, 'xml'), '<faellige-ausleihen/>');
  assert.equal(await xmlErrors('due-loans', render(none, 'xml') as string), '');
  assert.equal(jsonErrors('due-loans', render(none, 'json')), '');
  assert.match(squash(render(none, 'html', staff) as string), /Keine offenen Ausleihen/);
});

test('the HTML list offers staff a return button per loan and a borrow form, with the CSRF token', async () => {
  const r = await get('loans', { ...staff, query: 'benutzer=1' }, { overdueBlockDays: 30 });
  const page = squash(render(r, 'html', staff) as string);
  assert.match(page, /<h1>Ausleihen von Anna Berger<\/h1>/);
  assert.match(page, /<a href="\/werke\/faust">Faust<\/a>/);
  assert.match(page, /<time datetime="2024-05-01T10:00:00.000Z">1. Mai 2024<\/time>/);
  const returnForm = page.match(
    /<form class="return" method="post" action="\/ausleihen\/1\/100"> ?<input type="hidden" name="_method" value="DELETE"> ?<input type="hidden" name="_csrf" value="fake-csrf-token"> ?<input type="hidden" name="_version" value="([^"]+)">/,
  );
  assert.ok(returnForm, page);
  // The version a return form carries is the one the loan's own resource checks.
  const loan = await get('loan', { ...staff, query: 'benutzer=1&id=100' });
  assert.equal(returnForm[1], fakeContext().versionOf(loan));
  assert.match(
    page,
    /<form method="post" action="\/ausleihen\/1"> ?<input type="hidden" name="_csrf" value="fake-csrf-token">/,
  );
  assert.match(page, /<input id="werk" name="werk" type="text" required/);
  assert.match(page, /<link rel="canonical" href="https:\/\/library.example\/ausleihen\/1">/);
  assert.match(page, /<link rel="alternate" type="application\/xml" href="\/ausleihen\/1.xml">/);
  // English, and the escaping of titles.
  const en = squash(render(r, 'html', { ...staff, lang: 'en' }) as string);
  assert.match(en, /<h1>Loans of Anna Berger<\/h1>/);
  assert.match(en, /Effi Briest &lt;1894&gt;/);
  assert.match(en, /aria-label="Return “Effi Briest &lt;1894&gt;”"/);
});

test('a member sees no return button they cannot use: the pages say returns go over the desk (ADR 0061)', async () => {
  const list = squash(render(await get('loans', { ...owner, query: 'benutzer=1' }), 'html', owner) as string);
  assert.doesNotMatch(list, /<form class="return"/);
  // The renew button stays (ADR 0060): renewing is the member's own business.
  assert.match(list, /<form class="renew" method="post" action="\/ausleihen\/1\/100\/verlaengerung">/);
  assert.match(list, /Rückgaben nimmt das Personal an der Theke entgegen/);
  const one = squash(
    render(await get('loan', { ...owner, query: 'benutzer=1&id=100' }), 'html', owner) as string,
  );
  assert.doesNotMatch(one, /<form class="return"/);
  assert.match(one, /Rückgaben nimmt das Personal an der Theke entgegen/);
  // With SHELFMARK_MEMBER_RETURNS the member gets the buttons.
  const allowed = { memberReturns: true };
  const own = squash(
    render(await get('loans', { ...owner, query: 'benutzer=1' }, allowed), 'html', owner) as string,
  );
  assert.match(own, /<form class="return" method="post" action="\/ausleihen\/1\/100">/);
  assert.doesNotMatch(own, /an der Theke/);
  const oneOwn = render(await get('loan', { ...owner, query: 'benutzer=1&id=100' }, allowed), 'html', owner);
  assert.match(squash(oneOwn as string), /<form class="return"/);
});

test('a loan overdue by more than the blocking days replaces the borrow form with the reason (ADR 0061)', async () => {
  // Effi Briest is 21 days overdue at NOW: blocked with the default 14 days, not with 30.
  const blocked = squash(
    render(await get('loans', { ...owner, query: 'benutzer=1' }), 'html', owner) as string,
  );
  assert.match(blocked, /seit mehr als 14 Tagen überfällig/);
  assert.doesNotMatch(blocked, /<input id="werk"/);
  const open = squash(
    render(
      await get('loans', { ...owner, query: 'benutzer=1' }, { overdueBlockDays: 30 }),
      'html',
      owner,
    ) as string,
  );
  assert.match(open, /<input id="werk"/);
  assert.doesNotMatch(open, /überfällig\. Bitte/);
});

test('all loan pages are valid HTML5 (Nu checker)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelfmark-loans-html-'));
  const pages = {
    list: render(await get('loans', { ...owner, query: 'benutzer=1' }), 'html', owner),
    empty: render(await get('loans', { ...staff, query: 'benutzer=2' }), 'html', staff),
    loan: render(await get('loan', { ...owner, query: 'benutzer=1&id=101' }), 'html', owner),
    due: render(await get('loans', staff), 'html', staff),
  };
  const files = Object.entries(pages).map(([name, text]) => {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, text as string);
    return file;
  });
  const vnu = join(import.meta.dirname, '../../../node_modules/vnu-jar/build/dist/vnu.jar');
  let report = '';
  try {
    execFileSync('java', ['-jar', vnu, '--errors-only', '--format', 'text', ...files], { stdio: 'pipe' });
  } catch (err) {
    report = String((err as { stderr?: Buffer }).stderr ?? err);
  }
  assert.equal(report, '');
});

test('the werk field: slug, readable or script URL, absolute or root-relative, under the base only', () => {
  const links = fakeContext({ basePath: '/katalog' }).links;
  const cases: [unknown, unknown][] = [
    ['faust', { slug: 'faust' }],
    [' faust ', { slug: 'faust' }],
    ['https://library.example/katalog/werke/faust', { slug: 'faust' }],
    ['HTTPS://LIBRARY.EXAMPLE/katalog/werke/faust.json', { slug: 'faust' }],
    ['/katalog/werke/faust', { slug: 'faust' }],
    ['/katalog/werk?id=12', { id: 12 }],
    ['/katalog/werk.xml?slug=faust', { slug: 'faust' }],
    ['/werke/faust', null],
    ['https://library.example/werke/faust', null],
    ['https://library.example/katalogx/werke/faust', null],
    ['//library.example/katalog/werke/faust', null],
    ['/katalog/werke/Faust', null],
    ['/katalog/werke/a/b', null],
    ['/katalog/werk?id=0', null],
    ['/katalog/werke/%E0%A4%A', null],
    ['javascript:alert(1)', null],
    [['faust', 'egmont'], null],
    [7, null],
  ];
  for (const [value, expected] of cases)
    assert.deepEqual(parseWerkField(value, links), expected, String(value));
});

test('the rewrite table maps the readable loan URLs to the handlers', () => {
  const rewrite = (path: string) => {
    const rule = catalogueRewrites.find((r) => r.pattern.test(path));
    return rule ? path.replace(rule.pattern, rule.target) : null;
  };
  assert.equal(rewrite('/ausleihen/42'), '/ausleihen?benutzer=42');
  assert.equal(rewrite('/ausleihen/42/7'), '/ausleihe?benutzer=42&id=7');
  assert.equal(rewrite('/ausleihen'), null);
  assert.equal(rewrite('/ausleihen/42/x'), null);
});
