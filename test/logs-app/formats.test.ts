// SHELFMARK_ACCESS_LOG_FORMAT end to end: `shelfmark serve` started with `common` and with a
// custom Apache LogFormat string writes the corpus of normal, malformed and hostile requests
// in that format, one line each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sendCorpus, type Sent } from './corpus.ts';
import { serve } from './spawn-serve.ts';
import { goaccess, grok } from '../logs/log-tools.ts';

const SERVE = 'node src/cli/shelfmark.ts serve --workers 0';

async function run(format: string): Promise<{ sent: Sent[]; access: string[] }> {
  const s = await serve(SERVE, { SHELFMARK_ACCESS_LOG_FORMAT: format });
  let sent: Sent[];
  try {
    sent = await sendCorpus(s.port);
  } catch (error) {
    await s.stop();
    throw error;
  }
  const logs = await s.stop();
  assert.equal(logs.access.length, sent.length, logs.access.join('\n'));
  return { sent, access: logs.access };
}

test('common: `%h %l %u %t "%r" %>s %b`, accepted by GoAccess COMMON and grok HTTPD_COMMONLOG', async () => {
  const { sent, access } = await run('common');
  sent.forEach((s, i) => {
    const line = access[i]!;
    const want = `"${s.request}" ${s.status} `;
    assert.ok(line.includes(want), `${s.name}: ${line} has ${want}`);
    assert.match(line, /^127\.0\.0\.1 - .* \[[^\]]+\] "(?:[^"\\]|\\.)*" \d{3} (?:-|\d+)$/, line);
    assert.ok(line.startsWith(`127.0.0.1 - ${s.user ?? '-'} [`), `%u of ${s.name}`);
  });
  const g = grok(
    'HTTPD_COMMONLOG',
    access.filter((_l, i) => !sent[i]!.exoticUser),
  );
  assert.ok(g.ok, g.output);
  // GoAccess's 4096-character line limit: see hostile-log.test.ts.
  const ga = goaccess(
    access.map((l) => (l.length >= 4096 ? l.replace(/a{5000}/, '') : l)),
    'COMMON',
  );
  assert.ok(ga.ok, ga.output);
});

test('a custom LogFormat string with every directive of docs/logs.md', async () => {
  const format =
    '%h %a %l %u %t "%r" %>s %s %b %B %D %T %m %U %q %H "%{Referer}i" "%{X-Content-Type-Options}o" %%';
  const { sent, access } = await run(format);
  const shape =
    /^(\S+) (\S+) - (.*) \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}) (\d{3}) (-|\d+) (\d+) (\d+) (\d+) (\S+) (\S+) (\S*) (\S+) "((?:[^"\\]|\\.)*)" "([^"]*)" %$/;
  sent.forEach((s, i) => {
    const line = access[i]!;
    const m = shape.exec(line);
    assert.ok(m, `${s.name}: ${line}`);
    const [, h, a, u, , r, final, , b, B] = m;
    assert.equal(h, '127.0.0.1');
    assert.equal(a, '127.0.0.1');
    assert.equal(u, s.user ?? '-');
    assert.equal(r, s.request);
    assert.equal(Number(final), s.status);
    assert.equal(b === '-' ? '0' : b, B, '%b and %B agree');
    assert.equal(m[16], s.referer ?? '-');
  });
  const byName = (name: string) => access[sent.findIndex((s) => s.name === name)]!;
  // %m %U %q %H of a normal request; the layer's nosniff header as %{…}o.
  assert.match(byName('xml'), / GET \/werke \?q=faust&format=xml HTTP\/1\.1 "-" "nosniff" %$/);
  // What the parser rejected never reached the application: no response header from it.
  assert.match(byName('lower-case method'), / 501 501 \d+ \d+ \d+ \d+ .* "-" "-" %$/);
});
