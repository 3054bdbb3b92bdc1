import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRawHead } from './raw-head.ts';
import { decideRejection, errorDocument, rawErrorResponse, REFUSALS } from './rejection.ts';

const head = (text: string) => parseRawHead(Buffer.from(text, 'latin1'));

test("Node's parser errors map to httpd's refusals and texts", () => {
  const ok = head('GET /x HTTP/1.1\r\n');
  assert.deepEqual(decideRejection('ERR_HTTP_REQUEST_TIMEOUT', ok, ''), REFUSALS.headerReadTimeout());
  assert.deepEqual(decideRejection('HPE_HEADER_OVERFLOW', ok, ''), REFUSALS.fieldTooLong());
  assert.equal(
    REFUSALS.fieldTooLong().entry?.message,
    'AH00561: Request header exceeds LimitRequestFieldSize',
  );
  assert.equal(
    decideRejection('HPE_INVALID_URL', ok, '').entry?.message,
    'AH00126: Invalid URI in request GET /x HTTP/1.1',
  );
  const lower = decideRejection('HPE_INVALID_METHOD', head('get /x HTTP/1.1\r\n'), '');
  assert.equal(lower.status, 501);
  assert.equal(lower.entry?.message, 'AH00135: Invalid method in request get /x HTTP/1.1');
  const other = decideRejection('HPE_INVALID_CONSTANT', ok, 'HPE_INVALID_CONSTANT Expected HTTP/');
  assert.deepEqual(other.entry, {
    level: 'debug',
    module: 'core',
    message: 'request failed: HPE_INVALID_CONSTANT Expected HTTP/',
  });
});

test('a request line over 8190 bytes is 414 whatever Node reported', () => {
  const r = decideRejection('HPE_HEADER_OVERFLOW', head('GET /' + 'a'.repeat(9000)), '');
  assert.equal(r.status, 414);
});

test("the error document and raw response are httpd's, HEAD without a body", () => {
  const { body } = errorDocument(408);
  assert.equal(
    body,
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>408 Request Timeout</title>\n' +
      '</head><body>\n<h1>Request Timeout</h1>\n<p>Server timeout waiting for the HTTP request from the client.</p>\n' +
      '</body></html>\n',
  );
  const bad = REFUSALS.other('x');
  const full = rawErrorResponse(bad, false).toString('latin1');
  assert.match(full, /^HTTP\/1\.1 400 Bad Request\r\n/);
  assert.ok(full.endsWith(errorDocument(400).body));
  assert.equal(bad.document, errorDocument(400).body);
  assert.match(full, new RegExp(`Content-Length: ${errorDocument(400).body.length}\r\n`));
  assert.ok(rawErrorResponse(bad, true).toString('latin1').endsWith('\r\n\r\n'));
});

test('417 echoes the expectation HTML-escaped; CONNECT is 405 with an empty Allow', () => {
  const r = REFUSALS.expectationFailed('bogus<b>&');
  assert.equal(r.status, 417);
  assert.match(r.document, /Expect: bogus&lt;b&gt;&amp;\n<\/pre>/);
  assert.equal(
    r.entry?.message,
    'AH00570: client sent an unrecognized expectation value of Expect: bogus<b>&',
  );
  const c = REFUSALS.connectNotAllowed();
  assert.equal(c.status, 405);
  assert.deepEqual(c.headers, { Allow: '' });
  assert.match(rawErrorResponse(c, false).toString('latin1'), /\r\nAllow: \r\n/);
});

test('an unknown Transfer-Encoding Node rejects before dispatch is AH02539 with the path', () => {
  const r = decideRejection(
    'HPE_INVALID_TRANSFER_ENCODING',
    head('POST /a?b=1 HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n'),
    '',
  );
  assert.equal(r.status, 400);
  assert.equal(r.entry?.message, 'AH02539: client sent unknown Transfer-Encoding (chunked, gzip): /a');
});
