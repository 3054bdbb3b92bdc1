// `maskTarget`: a secret the URL carries (a single-use link's token) never reaches the access
// log — not in %r, not in %U/%q, not in the Referer of the next request — while the rest of
// the line is as sent. A real server over TCP and the real combined format.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { compileLogFormat } from '../logging/access/compile.ts';
import type { AccessRecord } from '../logging/access/index.ts';
import { createHttpServer } from './create-server.ts';

test('the access log writes the masked target, query and Referer', async () => {
  const records: AccessRecord[] = [];
  const server = createHttpServer({
    handler: (_req, res) => res.end('ok'),
    accessLog: { log: (record) => records.push(record), afterWritten: (then) => then() },
    maskTarget: (target) => target.replace(/(\/geheim)[^\s]*/g, '$1/*****'),
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    await (await fetch(`${base}/geheim/TOKEN123?x=TOKEN123`)).text();
    await (await fetch(`${base}/weiter?q=1`, { headers: { Referer: `${base}/geheim/TOKEN123` } })).text();
    assert.equal(records.length, 2);
    const line = compileLogFormat('%r %U %q "%{Referer}i"');
    const [first, second] = records.map((r) => line(r));
    assert.equal(first, 'GET /geheim/***** HTTP/1.1 /geheim/*****  "-"');
    assert.equal(second, `GET /weiter?q=1 HTTP/1.1 /weiter ?q=1 "${base}/geheim/*****"`);
    assert.ok(!records.some((r) => JSON.stringify(line(r)).includes('TOKEN123')));
  } finally {
    await server.stop(0);
  }
});
