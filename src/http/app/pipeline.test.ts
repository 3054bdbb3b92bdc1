// The one pipeline (ADR 0071): the order of its stages where it shows in answers, and that the
// stages after an answer run for every answer — also the 503 of a closing app.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { securityApp } from '../../../test/kit/http/security-app.ts';
import { createResourceApp } from './create-app.ts';
import type { ResourceDefinition } from '../resource/types.ts';

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

test('authentication runs before the body: a failed Basic attempt is refused unread', async (t) => {
  const app = await securityApp();
  t.after(() => app.close());
  const post = (authorization: string) =>
    app.inject({
      method: 'POST',
      url: '/katalog/ding',
      headers: { authorization, 'content-type': 'text/plain', accept: 'application/json' },
      payload: 'not a body type the layer takes',
    });
  const refused = await post(basic('anna', 'wrong'));
  assert.equal(refused.statusCode, 401, 'not the 415 the body would have earned');
  assert.match(String(refused.headers['www-authenticate']), /^Basic /);
  assert.equal((await post(basic('anna', 'anna'))).statusCode, 415, 'who passes meets the body stage');
});

test('a request arriving while the app closes is a 503 problem that passes the finishing stage', async (t) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
  const slow: ResourceDefinition = {
    name: 'slow',
    path: '/slow',
    methods: {
      async GET() {
        arrived();
        await released;
        return { type: 'empty', status: 204 };
      },
    },
  };
  let closing!: () => void;
  const closingStarted = new Promise<void>((resolve) => (closing = resolve));
  let refused!: () => void;
  const refusalSent = new Promise<void>((resolve) => (refused = resolve));
  const app = await createResourceApp({
    baseUrl: 'http://127.0.0.1',
    trustProxy: [],
    resources: [slow],
    rewrites: [],
    displayErrors: false,
    // Runs after the layer's own preClose (registration order): the layer knows it closes.
    configure(app) {
      app.addHook('preClose', (done) => {
        closing();
        done();
      });
      app.addHook('onSend', async (_request, reply) => {
        if (reply.statusCode === 503) refused();
      });
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as net.AddressInfo;
  // Two requests on one connection: the second is sent once the app started closing, while the
  // first still keeps the connection busy (so closing the idle connections leaves it open).
  const socket = net.connect(port, '127.0.0.1');
  t.after(() => socket.destroy());
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  const ended = new Promise((resolve) => socket.on('close', resolve));
  socket.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await slowArrived;
  const closed = app.close();
  await closingStarted;
  socket.write('GET /slow.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await refusalSent;
  release();
  await closed;
  await ended;
  const answers = text.split(/(?=HTTP\/1\.1 )/);
  assert.equal(answers.length, 2, text);
  assert.match(answers[0]!, /^HTTP\/1\.1 204 /);
  const second = answers[1]!;
  assert.match(second, /^HTTP\/1\.1 503 /);
  assert.match(second, /\r\ncontent-type: application\/problem\+json/i, 'in the negotiated format');
  assert.match(second, /"code":"SHELFMARK_SERVICE_UNAVAILABLE"/);
  assert.match(second, /\r\nx-content-type-options: nosniff\r\n/i, 'the finishing stage ran');
  assert.match(second, /\r\ncache-control: no-store\r\n/i);
  assert.match(second, /\r\nconnection: close\r\n/i);
});
