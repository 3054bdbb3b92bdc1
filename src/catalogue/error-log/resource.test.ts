// The error-log resource with fake contexts: who may read it, the query parameters, the three
// representations (exact JSON, schema-valid XML and JSON, valid HTML) and the stderr case.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Outcome, Principal, Representation } from '../../http/resource/types.ts';
import { formatErrorLine } from '../../logging/index.ts';
import { validateHtml } from '../../../test/support/html.ts';
import { HttpError } from '../shared/index.ts';
import { fakeContext, type FakeContextOptions } from '../../../test/kit/catalogue/fakes.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { errorLogResource } from './resource.ts';

const USERS: Record<string, Principal | null> = {
  anonymous: null,
  member: { id: 2, username: 'anna', role: 'member' },
  staff: { id: 1, username: 'personal', role: 'staff' },
};

const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-error-log-'));
const file = path.join(dir, 'error.log');
const EPOCH_US = 1_793_583_149_467_118;
writeFileSync(
  file,
  [
    formatErrorLine({ module: 'shelfmark', level: 'notice', message: 'started', pid: 10, epochUs: EPOCH_US }),
    'Node.js v24.0.0 \u001b[31mcrash\u001b[0m',
    formatErrorLine({
      module: 'shelfmark',
      level: 'error',
      message: 'TypeError: <b>bad</b> "x"\nStack trace:\n#0 f()',
      client: '127.0.0.1:5000',
      referer: 'http://example.com/a?b="c"',
      pid: 11,
      epochUs: EPOCH_US + 1,
    }),
    formatErrorLine({
      module: 'node',
      level: 'warn',
      message: 'DeprecationWarning: x',
      pid: 12,
      epochUs: EPOCH_US + 2,
    }),
  ].join('\n') + '\n',
);

async function get(ctx: FakeContextOptions, logPath = file): Promise<Outcome> {
  return errorLogResource({ errorLogPath: logPath }).methods.GET!(
    fakeContext({ path: '/protokoll/fehler', ...ctx }),
  );
}

async function statusOf(outcome: Promise<Outcome>): Promise<number> {
  try {
    const o = await outcome;
    return o.type === 'representation' ? (o.status ?? 200) : o.status;
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
}

async function representation(ctx: FakeContextOptions, logPath = file): Promise<Representation<unknown>> {
  const outcome = await get({ user: USERS.staff, ...ctx }, logPath);
  assert.equal(outcome.type, 'representation');
  if (outcome.type !== 'representation') throw new Error('unreachable');
  return outcome.representation as Representation<unknown>;
}

function render(
  r: Representation<unknown>,
  format: 'html' | 'xml' | 'json',
  ctx: FakeContextOptions = {},
): unknown {
  const c = fakeContext({ user: USERS.staff, ...ctx, format });
  return format === 'json' ? r.view.json(r.model, c) : r.view[format](r.model, c).text;
}

describe('access', () => {
  for (const [who, status] of [
    ['anonymous', 403],
    ['member', 403],
    ['staff', 200],
  ] as const) {
    test(`${who} → ${status}`, async () => {
      assert.equal(await statusOf(get({ user: USERS[who] })), status);
    });
  }
  test('refused before the query is looked at (no 400 for strangers)', async () => {
    assert.equal(await statusOf(get({ user: null, query: 'stufe=laut' })), 403);
  });
});

test('query: an unknown level is 400, anzahl is capped at 1000 and falls back to 100', async () => {
  assert.equal(await statusOf(get({ user: USERS.staff, query: 'stufe=laut' })), 400);
  const capped = await representation({ query: 'anzahl=5000' });
  assert.equal(capped.canonicalPath, '/protokoll/fehler?anzahl=1000');
  const fallback = await representation({ query: 'anzahl=viele&stufe=warn' });
  assert.equal(fallback.canonicalPath, '/protokoll/fehler?stufe=warn');
  assert.equal(fallback.schema, 'error-log');
});

test('JSON: newest first, exact item shape, schema-valid', async () => {
  const json = render(await representation({}), 'json') as { eintrag: unknown[] } & Record<string, unknown>;
  assert.equal(json.anzahl, 100);
  assert.equal(json.stufe, null);
  assert.equal(json.live, 'https://library.example/protokoll/fehler/live');
  assert.equal(json.eintrag.length, 4);
  const [warn, error, raw, notice] = json.eintrag as Record<string, unknown>[];
  assert.equal(warn!.stufe, 'warn');
  assert.deepEqual(
    { ...error, zeit: undefined },
    {
      zeit: undefined,
      modul: 'shelfmark',
      stufe: 'error',
      pid: 11,
      tid: 11,
      client: '127.0.0.1:5000',
      meldung: 'TypeError: <b>bad</b> "x"\\nStack trace:\\n#0 f()',
      referer: 'http://example.com/a?b="c"',
    },
  );
  assert.equal(Date.parse(String(error!.zeit)), Math.floor((EPOCH_US + 1) / 1000));
  assert.deepEqual(raw, { zeile: 'Node.js v24.0.0 \\x1b[31mcrash\\x1b[0m' });
  assert.equal(notice!.stufe, 'notice');
  assert.equal(jsonErrors('error-log', json), '');
});

test('level filter: warn and above (notice is below warn), unparsed lines kept', async () => {
  const json = render(await representation({ query: 'stufe=warn' }), 'json') as {
    eintrag: Record<string, unknown>[];
  };
  assert.deepEqual(
    json.eintrag.map((e) => e.stufe ?? 'raw'),
    ['warn', 'error', 'raw'],
  );
  assert.equal(jsonErrors('error-log', json), '');
});

test('XML is schema-valid and escapes the message', async () => {
  const xml = render(await representation({ query: 'stufe=warn' }), 'xml') as string;
  assert.match(
    xml,
    /^<fehlerprotokoll anzahl="100" stufe="warn" live="https:\/\/library\.example\/protokoll\/fehler\/live\?stufe=warn" unvollstaendig="false">/,
  );
  assert.match(
    xml,
    /<meldung>TypeError: &lt;b&gt;bad&lt;\/b&gt; &quot;x&quot;\\nStack trace:\\n#0 f\(\)<\/meldung>/,
  );
  assert.equal(await xmlErrors('error-log', xml), '');
});

test('HTML: a table newest first with level badges, live link, valid', async () => {
  const page = render(await representation({}), 'html', { lang: 'en' }) as string;
  assert.match(page, /<h1>Error log<\/h1>/);
  assert.ok(page.indexOf('level-warn') < page.indexOf('level-error'));
  assert.match(page, /<span class="level level-error">error<\/span>/);
  assert.match(page, /TypeError: &lt;b&gt;bad&lt;\/b&gt; &quot;x&quot;\nStack trace:\n#0 f\(\)\nReferer: /);
  assert.match(page, /data-live="\/protokoll\/fehler\/live"/);
  assert.doesNotMatch(page, /<b>bad/);
  const german = render(await representation({}), 'html', { lang: 'de' }) as string;
  assert.match(german, /<h1>Fehlerprotokoll<\/h1>/);
  const [result] = await validateHtml([{ name: 'error log', html: page }]);
  assert.deepEqual(result!.messages, []);
});

test('a log on stderr: an empty list with an explanation, not an error', async () => {
  const r = await representation({}, '-');
  const json = render(r, 'json') as Record<string, unknown>;
  assert.deepEqual(json.eintrag, []);
  assert.match(String(json.hinweis), /standard error/);
  assert.equal(jsonErrors('error-log', json), '');
  assert.equal(await xmlErrors('error-log', render(r, 'xml') as string), '');
  assert.match(render(r, 'html') as string, /Standardfehlerausgabe/);
});

test('a missing log file is an empty log', async () => {
  const json = render(await representation({}, path.join(dir, 'none.log')), 'json') as { eintrag: unknown[] };
  assert.deepEqual(json.eintrag, []);
});
