// Design §8 on the real application: a handler that throws → 500 and ONE error-log entry naming
// class, message, .ts file and line of the throw; the 500 body in every format shows the
// exception when displayErrors is on, and is empty (access log `500 -`) when it is off.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startRealApp, tempDir, type RealApp } from './real-app.ts';
import {
  THROWING_FILE,
  THROWING_LINE,
  THROWING_MESSAGE,
  THROWING_PATH,
  throwingResource,
} from './throwing-resource.ts';
import { validateXml } from '../support/xml.ts';
import { validateJson } from '../support/json.ts';
import { validateHtml } from '../support/html.ts';
import { skipUnless } from '../support/requirements.ts';
import { FAIL2BAN_PREFIX, grok } from '../logs/log-tools.ts';

const ACCEPTS = {
  html: 'text/html',
  json: 'application/json',
  xml: 'application/xml',
} as const;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const ENTRY = new RegExp(
  String.raw`^\[\w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2}\.\d{6} \d{4}\] \[shelfmark:error\] \[pid (\d+):tid (\d+)\] ` +
    String.raw`\[client 127\.0\.0\.1:(\d+)\] ` +
    escapeRe(`TypeError: ${THROWING_MESSAGE} in ${THROWING_FILE} on line ${THROWING_LINE}`) +
    String.raw`\\nStack trace:\\n#0 \S*GET \(` +
    escapeRe(`${THROWING_FILE}:${THROWING_LINE}:`) +
    String.raw`\d+\)\\n#1 `,
);

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

async function askAll(app: RealApp): Promise<Record<keyof typeof ACCEPTS, Answer>> {
  const out: Partial<Record<keyof typeof ACCEPTS, Answer>> = {};
  for (const [format, accept] of Object.entries(ACCEPTS) as [keyof typeof ACCEPTS, string][]) {
    const r = await fetch(app.base + THROWING_PATH, {
      headers: { accept, referer: 'http://example.com/"x"' },
    });
    out[format] = { status: r.status, type: r.headers.get('content-type'), body: await r.text() };
  }
  return out as Record<keyof typeof ACCEPTS, Answer>;
}

function checkErrorLog(lines: string[], requests: number): void {
  const entries = lines.filter((l) => l.includes('[shelfmark:error]'));
  assert.equal(entries.length, requests, `one entry per failing request:\n${lines.join('\n')}`);
  for (const line of entries) {
    const m = ENTRY.exec(line);
    assert.ok(m, `entry names class, message, file and line of the throw:\n${line}\nexpected ${ENTRY}`);
    assert.equal(Number(m[1]), process.pid);
    assert.equal(m[1], m[2]);
    assert.ok(line.endsWith(`, referer: http://example.com/"x"`), line);
    assert.doesNotMatch(line, /\n/);
    assert.match(line, FAIL2BAN_PREFIX);
  }
  const g = grok('HTTPD24_ERRORLOG', lines);
  assert.ok(g.ok, g.output);
}

describe('an uncaught error with displayErrors on', () => {
  let app: RealApp;
  let answers: Record<keyof typeof ACCEPTS, Answer>;
  let logs: { access: string[]; error: string[] };
  before(async () => {
    app = await startRealApp({ displayErrors: true, extraResources: [throwingResource] });
    answers = await askAll(app);
  });
  after(async () => {
    logs ??= await app.stop();
  });

  test('HTML: the error page shows class, message, file, line, stack and the source line', () => {
    const a = answers.html;
    assert.equal(a.status, 500);
    assert.match(a.type ?? '', /^text\/html/);
    assert.ok(a.body.includes('TypeError'));
    assert.ok(
      a.body.includes('Cannot read &quot;shelf&quot; of undefined') ||
        a.body.includes('Cannot read &#34;shelf&#34;'),
      'escaped message',
    );
    assert.ok(a.body.includes(THROWING_FILE));
    assert.ok(a.body.includes(`${THROWING_LINE}`));
    assert.ok(a.body.includes(`throwing-resource.ts:${THROWING_LINE}:`), 'stack');
    assert.ok(a.body.includes('// &lt;- the throw'), 'source excerpt with the throw, escaped');
  });

  test('HTML error page is valid HTML', skipUnless('java'), async () => {
    const [result] = await validateHtml([{ name: '500', html: answers.html.body }]);
    assert.deepEqual(
      result?.messages.filter((m) => m.type === 'error'),
      [],
    );
  });

  test('problem+json: the exception member, valid against /schema/problem.json', async () => {
    const a = answers.json;
    assert.equal(a.status, 500);
    assert.match(a.type ?? '', /^application\/problem\+json/);
    const problem = JSON.parse(a.body);
    assert.equal(problem.status, 500);
    assert.equal(problem.code, 'SHELFMARK_INTERNAL_ERROR');
    assert.equal(problem.exception.class, 'TypeError');
    assert.equal(problem.exception.message, THROWING_MESSAGE);
    assert.equal(problem.exception.file, THROWING_FILE);
    assert.equal(problem.exception.line, THROWING_LINE);
    assert.match(problem.exception.stack, new RegExp(escapeRe(`${THROWING_FILE}:${THROWING_LINE}:`)));
    assert.match(problem.exception.source, new RegExp(`^> +${THROWING_LINE} \\| .*// <- the throw$`, 'm'));
    const schema = (await (await fetch(app.base + '/schema/problem.json')).json()) as object;
    const v = validateJson(problem, schema);
    assert.ok(v.ok, v.errors);
  });

  test(
    'problem+xml: the exception element, valid against /schema/problem.xsd',
    skipUnless('xmllint'),
    async () => {
      const a = answers.xml;
      assert.equal(a.status, 500);
      assert.match(a.type ?? '', /^application\/problem\+xml/);
      assert.ok(a.body.includes('<class>TypeError</class>'));
      assert.ok(a.body.includes('<message>Cannot read &quot;shelf&quot; of undefined</message>'));
      assert.ok(a.body.includes(`<file>${THROWING_FILE}</file>`));
      assert.ok(a.body.includes(`<line>${THROWING_LINE}</line>`));
      assert.ok(a.body.includes('// &lt;- the throw'));
      const xsd = path.join(tempDir(), 'problem.xsd');
      fs.writeFileSync(xsd, await (await fetch(app.base + '/schema/problem.xsd')).text());
      const v = await validateXml(a.body, xsd);
      assert.ok(v.ok, v.errors);
    },
  );

  test('exactly one error-log entry per failing request, Apache/grok/fail2ban shaped', async () => {
    logs = await app.stop();
    checkErrorLog(logs.error, 3);
    const served = logs.access.filter((l) => l.includes(`"GET ${THROWING_PATH} HTTP/1.1" 500 `));
    assert.equal(served.length, 3);
    for (const l of served) assert.match(l, / 500 \d+ /);
  });
});

describe('an uncaught error with displayErrors off', () => {
  let app: RealApp;
  let answers: Record<keyof typeof ACCEPTS, Answer>;
  before(async () => {
    app = await startRealApp({ displayErrors: false, extraResources: [throwingResource] });
    answers = await askAll(app);
  });

  test('500 with an empty body in every format; access log `500 -`; one entry each', async () => {
    for (const a of Object.values(answers)) {
      assert.equal(a.status, 500);
      assert.equal(a.body, '');
      assert.equal(a.type, null);
    }
    const logs = await app.stop();
    checkErrorLog(logs.error, 3);
    const served = logs.access.filter((l) => l.includes(`"GET ${THROWING_PATH} HTTP/1.1"`));
    assert.equal(served.length, 3);
    for (const l of served) assert.match(l, /" 500 - "http:\/\/example\.com\/\\"x\\"" "node"$/);
  });
});
