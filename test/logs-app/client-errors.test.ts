// The server factory (createHttpServer) answers what Node's parser rejects; Fastify, created by
// the resource layer with handlesClientErrors, must not answer a second time (its default
// clientErrorHandler writes its own 400/408/431 and destroys the socket, cutting ours off).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRealApp } from './real-app.ts';
import { sendRaw } from '../logs/send-raw.ts';

test('only createHttpServer answers a client error in the real app', async () => {
  const app = await startRealApp();
  try {
    // A socket createHttpServer does not know: it only destroys it. Fastify's default handler
    // would then write `431 Request Header Fields Too Large` to a socket still writable.
    const writes: string[] = [];
    const fake = {
      writable: true,
      destroyed: false,
      write: (chunk: string) => void writes.push(chunk),
      end: (chunk?: string) => void (chunk && writes.push(chunk)),
      destroy: () => undefined,
    };
    const err = Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW' });
    app.running.server.emit('clientError', err, fake);
    assert.deepEqual(writes, []);
    // A real rejected request still gets exactly one answer: httpd's 400 page.
    const answer = (await sendRaw(app.port, Buffer.from('garbage\r\n\r\n'))).toString('latin1');
    assert.equal(answer.match(/^HTTP\/1\.1 /gm)?.length, 1, answer);
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n[^]*<title>400 Bad Request<\/title>/);
  } finally {
    await app.stop();
  }
});
