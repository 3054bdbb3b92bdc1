// The registry (ADR 0090): the URL declarations are well formed and what is derived from them
// (rewrite rules, routes, link builders, the unions of the record kinds) follows them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  disallowedPaths,
  parametersOf,
  pathBuilder,
  RECORD_KINDS,
  RESOURCE_URLS,
  resourceUrl,
  rewriteRule,
  routeOf,
  routeQuery,
  SCHEMA_NAMES,
  tablesWith,
  type ResourceUrl,
  type Section,
  type SlugKind,
  type VersionedTable,
} from './index.ts';

test('ids are unique and every route names each parameter of its path once', () => {
  assert.equal(new Set(RESOURCE_URLS.map((u) => u.id)).size, RESOURCE_URLS.length);
  assert.equal(new Set(RESOURCE_URLS.map((u) => u.path)).size, RESOURCE_URLS.length);
  for (const url of RESOURCE_URLS) {
    const route = 'route' in url ? url.route : undefined;
    if (route === undefined) {
      assert.deepEqual(parametersOf(url.path), [], `${url.id}: a path with parameters needs a route`);
      continue;
    }
    assert.deepEqual(parametersOf(route).sort(), parametersOf(url.path).sort(), url.id);
  }
});

/** Examples of the parameters narrower than a slug (an item type's code, a day, a token). */
const EXAMPLES: Readonly<Record<string, string>> = { code: 'dvd', tag: '2026-12-24', token: 'aB3_-x' };

test('a rewrite rule sends the readable path to the route, and only it', () => {
  const copy = rewriteRule(RESOURCE_URLS.find((u) => u.id === 'Copy')!)!;
  assert.equal('/werke/faust/exemplare/2'.replace(copy.pattern, copy.target), '/exemplar?werk=faust&slug=2');
  for (const other of ['/werke/faust/exemplare/x', '/werke/faust/exemplare/2.json', '/werke/faust/exemplare'])
    assert.equal(copy.pattern.test(other), false, other);
  assert.equal(rewriteRule(RESOURCE_URLS.find((u) => u.id === 'Persons')!), null);
  // A narrow parameter takes only its own shape.
  const day = rewriteRule(RESOURCE_URLS.find((u) => u.id === 'ClosedDay')!)!;
  assert.equal(day.pattern.test('/ausleihregeln/schliesstage/2026-12-24'), true);
  assert.equal(day.pattern.test('/ausleihregeln/schliesstage/weihnachten'), false);
  const rules = RESOURCE_URLS.flatMap((u) => rewriteRule(u) ?? []);
  // Every readable path (an example of each) matches exactly one rule.
  for (const url of RESOURCE_URLS.filter((u) => 'route' in u)) {
    const example = url.path.replace(/\{([a-z_]+)\}/g, (_, name: string) =>
      name.endsWith('_id') || name === 'nummer' ? '7' : (EXAMPLES[name] ?? 'goethe'),
    );
    assert.equal(rules.filter((r) => r.pattern.test(example)).length, 1, example);
  }
});

test('routes are the script paths, or the path itself', () => {
  assert.equal(routeOf('Person'), '/person');
  assert.equal(routeOf('Password'), '/konto/passwort');
  assert.equal(routeOf('Persons'), '/personen');
  assert.equal(routeOf('DueLoans'), routeOf('Loans'), 'one route, two URLs');
});

test('the query a route hands its resource names each parameter', () => {
  assert.equal(routeQuery('Loans').toString(), 'benutzer=1');
  assert.equal(routeQuery('Copy').toString(), 'werk=slug&slug=1');
  assert.equal(routeQuery('DueLoans').toString(), '');
});

test('robots.txt keeps crawlers out of the marked URLs, and nothing the sitemap lists', () => {
  // Loans (every URL under /ausleihen), the log-in form, the error log, the server status.
  assert.deepEqual(disallowedPaths(), ['/ausleihen', '/sitzung', '/protokoll/fehler', '/server-status']);
  const blocked = (path: string) => disallowedPaths().some((rule) => path.startsWith(rule));
  for (const kind of Object.values(RECORD_KINDS).filter((k) => 'sitemap' in k))
    assert.equal(blocked(resourceUrl(kind.url).path.replace(/\{[a-z_]+\}/g, 'goethe')), false, kind.url);
  assert.equal(blocked('/'), false);
  // A parameter is RFC 9309's wildcard; a trailing one is dropped, and a covered rule too.
  const marked = (id: string, path: string): ResourceUrl => ({ id, resource: id, path, robots: 'disallow' });
  assert.deepEqual(
    disallowedPaths([
      marked('Account', '/personen/{slug}/konto'),
      marked('Password', '/personen/{slug}/konto/passwort'),
      marked('Loans', '/ausleihen/{user_id}'),
      { id: 'Person', resource: 'person', path: '/personen/{slug}' },
    ]),
    ['/personen/*/konto', '/ausleihen/'],
  );
});

test('the served schemas are the ones the URLs name, each once', () => {
  assert.equal(new Set(SCHEMA_NAMES).size, SCHEMA_NAMES.length);
  assert.ok(SCHEMA_NAMES.includes('notices'), 'two URLs share it');
  for (const url of RESOURCE_URLS) if ('schema' in url) assert.ok(SCHEMA_NAMES.includes(url.schema), url.id);
});

test('link builders fill the parameters in order, percent-encoded', () => {
  assert.equal(pathBuilder('Copy')('faust', 2), '/werke/faust/exemplare/2');
  assert.equal(pathBuilder('Person')('a b/ü'), '/personen/a%20b%2F%C3%BC');
  assert.equal(pathBuilder('Renewal')(1, 42), '/ausleihen/1/42/verlaengerung');
  assert.equal(pathBuilder('Home')(), '/');
  // The template gives the builder its parameters: number and types (checked by the compiler).
  // @ts-expect-error a copy needs its number
  assert.equal(pathBuilder('Copy')('faust'), '/werke/faust/exemplare/undefined');
  // @ts-expect-error a loan's ids are numbers
  assert.equal(pathBuilder('Loans')('eins'), '/ausleihen/eins');
});

test('the record kinds give the shared code its tables', () => {
  assert.deepEqual(tablesWith('versioned'), ['persons', 'works', 'copies']);
  assert.deepEqual(tablesWith('listed'), ['persons', 'works']);
  assert.deepEqual(tablesWith('sitemap'), ['persons', 'works']);
  for (const kind of Object.values(RECORD_KINDS))
    assert.ok(
      RESOURCE_URLS.some((u) => u.id === kind.url),
      kind.url,
    );
  // The unions are the registry's, not wider (checked by the compiler).
  const slug: SlugKind = 'work';
  // @ts-expect-error copies have no slugs of their own
  const noSlug: SlugKind = 'copy';
  const versioned: VersionedTable = 'copies';
  // @ts-expect-error a section no URL names
  const section: Section = 'nowhere';
  assert.ok(slug && noSlug && versioned && section);
});
