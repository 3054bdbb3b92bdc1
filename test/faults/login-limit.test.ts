// Faults around the failed-log-in limit (docs/decisions/0034): padded user names, several
// workers, several machines on one PostgreSQL database, and a restart. Real `shelfmark serve`
// processes with the demo accounts (goethe / goethe).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { freshSchema, skipUnlessPg } from '../support/pg.ts';
import { serveShelfmark, statusOf, tryBasic, tryForm } from './login-support.ts';

/** The same account, as clients may type it: padding, NBSP, U+3000, case. */
const SPELLINGS = [
  'goethe',
  ' goethe',
  'goethe ',
  '\u00a0goethe',
  '\u3000goethe',
  'GOETHE',
  '  Goethe\u3000',
];

function tempDir(t: { after(fn: () => void): void }, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `shelfmark-faults-${name}-`));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function assertLimited(base: string, how: 'basic' | 'form', username = 'goethe') {
  const attempt = how === 'basic' ? tryBasic : tryForm;
  const limited = await statusOf(attempt(base, username, 'goethe'));
  assert.equal(limited.status, 429, `${how} ${JSON.stringify(username)}: even the right password is refused`);
  assert.match(limited.retryAfter ?? '', /^[1-9]\d*$/);
}

test('padded names by Basic and by the form count against one account; the limit survives a restart', async (t) => {
  const dir = tempDir(t, 'padding');
  const databaseUrl = join(dir, 'shelfmark.db');
  const first = await serveShelfmark({ databaseUrl, dir, secret: 'f'.repeat(40), t });
  // Five failures (the default limit), alternating spellings and both ways of logging in.
  for (const [i, name] of SPELLINGS.slice(1, 6).entries()) {
    const attempt = i % 2 === 0 ? tryBasic : tryForm;
    const { status } = await statusOf(attempt(first.base, name, `wrong-${i}`));
    assert.equal(status, 401, `failure ${i + 1} (${JSON.stringify(name)})`);
  }
  for (const name of SPELLINGS) {
    await assertLimited(first.base, 'basic', name);
    await assertLimited(first.base, 'form', name);
  }
  await first.stop();
  const again = await serveShelfmark({ databaseUrl, dir, secret: 'f'.repeat(40), t });
  await assertLimited(again.base, 'basic');
  await assertLimited(again.base, 'form', ' GOETHE ');
  // Another account from the same address is not affected.
  assert.equal((await statusOf(tryBasic(again.base, 'anna', 'anna'))).status, 200);
  await again.stop();
});

describe('one PostgreSQL database, several servers', skipUnlessPg, () => {
  test('two machines and two workers share one login limit and one session secret', async (t) => {
    const schema = await freshSchema();
    t.after(() => schema.drop());
    // Two "machines": separate data directories, no SHELFMARK_SECRET.
    const a = await serveShelfmark({ databaseUrl: schema.url, dir: tempDir(t, 'pg-a'), t });
    const b = await serveShelfmark({ databaseUrl: schema.url, dir: tempDir(t, 'pg-b'), t });

    const login = await tryForm(a.base, 'anna', 'anna');
    assert.equal(login.status, 303);
    const cookie = /^(shelfmark_session=[^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    assert.ok(cookie, 'a session cookie from machine A');
    const who = await fetch(`${b.base}/sitzung.json`, { headers: { cookie } });
    assert.equal(((await who.json()) as { username?: string }).username, 'anna', 'B accepts A’s cookie');

    for (const [i, server] of [a, b, a, b, a].entries()) {
      const { status } = await statusOf(tryBasic(server.base, SPELLINGS[i] ?? 'goethe', `wrong-${i}`));
      assert.equal(status, 401, `failure ${i + 1}`);
    }
    await assertLimited(a.base, 'basic');
    await assertLimited(b.base, 'form');

    // A third machine with two workers: every worker sees the limit (a few requests, spread
    // over the workers by the operating system), and accepts A's cookie.
    const c = await serveShelfmark({ databaseUrl: schema.url, dir: tempDir(t, 'pg-c'), workers: 2, t });
    for (let i = 0; i < 6; i++) await assertLimited(c.base, i % 2 === 0 ? 'basic' : 'form');
    const onC = await fetch(`${c.base}/sitzung.json`, { headers: { cookie } });
    assert.equal(((await onC.json()) as { username?: string }).username, 'anna');
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  });
});
