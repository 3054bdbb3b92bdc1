// `npm run dev` (one process, displayErrors on, node --watch) with a file saved with a syntax
// error: every request is answered 500 with the displayErrors page naming the file and line,
// in the negotiated format, the error log has one entry; once the file is fixed, node --watch
// restarts the process and the next request is answered 200.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { npmScript, serve } from '../logs-app/spawn-serve.ts';
import { BROKEN_HOME_INDEX, copyApp, HOME_INDEX } from './app-copy.ts';

const copy = copyApp();
after(() => copy.remove());

test('npm run dev: a syntax error answers 500 with file and line until the file is fixed', async (t) => {
  const broken = copy.write(HOME_INDEX, BROKEN_HOME_INDEX);
  const s = await serve(`cd '${copy.root}' && ${npmScript('dev')}`);
  let stopped = false;
  t.after(() => (stopped ? undefined : s.stop()));

  const page = await fetch(`${s.base}/personen/goethe`, { headers: { accept: 'text/html' } });
  assert.equal(page.status, 500);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const html = await page.text();
  assert.match(html, /SyntaxError: Expression expected/);
  assert.ok(html.includes(`${broken}:2`), html);
  assert.match(html, /&gt; 2 \| export const broken = ;/);

  const json = await fetch(`${s.base}/werke.json`);
  assert.equal(json.status, 500);
  assert.match(json.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const problem = (await json.json()) as { exception: { class: string; file: string; line: number } };
  assert.deepEqual(
    { class: problem.exception.class, file: problem.exception.file, line: problem.exception.line },
    { class: 'SyntaxError', file: broken, line: 2 },
  );

  copy.restore(HOME_INDEX);
  // node --watch restarts the process once it sees the file change; meanwhile it may refuse.
  let fixed = 0;
  for (let i = 0; i < 200 && fixed !== 200; i++) {
    fixed = await fetch(`${s.base}/personen/goethe`).then(
      (r) => r.status,
      () => 0,
    );
    if (fixed !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(fixed, 200, s.output());

  stopped = true;
  const logs = await s.stop();
  const entries = logs.error.filter((l) => l.includes('[shelfmark:crit]'));
  assert.equal(entries.length, 1, logs.error.join('\n'));
  assert.ok(
    entries[0]!.includes(`Cannot start: SyntaxError: Expression expected in ${broken} on line 2`),
    entries[0],
  );
  // Every request has its access-log line: the 500s (also those until the restart), then 200.
  const statuses = logs.access.map((l) => / (\d{3}) \d+ /.exec(l)?.[1]);
  assert.ok(statuses.length >= 3, logs.access.join('\n'));
  assert.deepEqual(
    statuses.slice(0, -1).filter((x) => x !== '500'),
    [],
    logs.access.join('\n'),
  );
  assert.equal(statuses.at(-1), '200');
});
