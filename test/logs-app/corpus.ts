// The requests a public server meets in a day, normal, malformed and hostile, sent to the real
// application one after another (raw bytes where fetch would tidy them up). Each entry says
// which status it must get and what its `%r` must look like in the access log.
import { sendRaw } from '../logs/send-raw.ts';

export interface Sent {
  readonly name: string;
  readonly status: number;
  /** The `"%r"` part of the line, exactly (escaped as Apache escapes). */
  readonly request: string;
  /** The `%u` part, when it is not `-`. */
  readonly user?: string;
  /** The user name is outside grok's user alphabet (the expected exception, as with Apache). */
  readonly exoticUser?: boolean;
  /** The `"%{Referer}i"` and `"%{User-Agent}i"` parts, when not `-`. */
  readonly referer?: string;
  readonly ua?: string;
}

const basic = (credentials: string) => 'Basic ' + Buffer.from(credentials, 'latin1').toString('base64');

function request(lines: string[], body = ''): Buffer {
  return Buffer.from(lines.join('\r\n') + '\r\n\r\n' + body, 'latin1');
}

/**
 * TLS 1.2 ClientHello as a browser sends it to an http:// port by mistake. A real one holds LF
 * bytes (cipher 0xc00a, the supported_groups extension 0x000a), where httpd ends the line it
 * judges; without one httpd would wait for more (ADR 0087).
 */
function clientHello(): Buffer {
  const random = Buffer.alloc(32, 7);
  return Buffer.concat([
    Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]),
    random,
    Buffer.from([0x00, 0x02, 0xc0, 0x0a]),
    Buffer.alloc(466),
  ]);
}

export async function sendCorpus(port: number): Promise<Sent[]> {
  const sent: Sent[] = [];
  const raw = async (s: Sent, bytes: Buffer) => {
    await sendRaw(port, bytes);
    sent.push(s);
  };
  const get = (target: string, headers: string[] = [], method = 'GET') =>
    request([`${method} ${target} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headers]);

  // Normal browsing.
  await raw(
    {
      name: 'home',
      status: 200,
      request: 'GET / HTTP/1.1',
      ua: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0',
    },
    get('/', ['User-Agent: Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0']),
  );
  await raw({ name: 'persons', status: 200, request: 'GET /personen HTTP/1.1' }, get('/personen'));
  await raw(
    { name: 'json', status: 200, request: 'GET /personen/goethe.json HTTP/1.1' },
    get('/personen/goethe.json'),
  );
  await raw(
    { name: 'xml', status: 200, request: 'GET /werke?q=faust&format=xml HTTP/1.1' },
    get('/werke?q=faust&format=xml'),
  );
  await raw(
    { name: 'HEAD', status: 200, request: 'HEAD /personen/goethe HTTP/1.1' },
    get('/personen/goethe', [], 'HEAD'),
  );
  const etag = await (async () => {
    const r = await fetch(`http://127.0.0.1:${port}/personen/goethe`);
    await r.arrayBuffer();
    return r.headers.get('etag') ?? '"none"';
  })();
  sent.push({ name: 'etag fetch', status: 200, request: 'GET /personen/goethe HTTP/1.1', ua: 'node' });
  await raw(
    { name: '304', status: 304, request: 'GET /personen/goethe HTTP/1.1' },
    get('/personen/goethe', [`If-None-Match: ${etag}`]),
  );
  await raw(
    { name: 'schema', status: 200, request: 'GET /schema/problem.xsd HTTP/1.1' },
    get('/schema/problem.xsd'),
  );
  await raw(
    { name: 'stylesheet', status: 200, request: 'GET /static/shelfmark.css HTTP/1.1' },
    get('/static/shelfmark.css'),
  );
  await raw(
    { name: 'HTTP/1.0 no Host', status: 200, request: 'GET / HTTP/1.0' },
    request(['GET / HTTP/1.0']),
  );

  // Client errors the application answers.
  await raw({ name: '404', status: 404, request: 'GET /wp-login.php HTTP/1.1' }, get('/wp-login.php'));
  await raw(
    { name: '404 person', status: 404, request: 'GET /personen/niemand HTTP/1.1' },
    get('/personen/niemand'),
  );
  await raw({ name: '405', status: 405, request: 'PATCH /personen HTTP/1.1' }, get('/personen', [], 'PATCH'));
  await raw({ name: '405 DELETE home', status: 405, request: 'DELETE / HTTP/1.1' }, get('/', [], 'DELETE'));
  await raw(
    { name: '406', status: 406, request: 'GET /personen/goethe HTTP/1.1' },
    get('/personen/goethe', ['Accept: image/png']),
  );
  await raw(
    { name: 'unknown format', status: 404, request: 'GET /werke?format=pdf HTTP/1.1' },
    get('/werke?format=pdf'),
  );

  // Users: the name is logged whether or not the password is right (Apache fills %u first).
  await raw(
    { name: 'staff', status: 200, request: 'GET /werke HTTP/1.1', user: 'personal' },
    get('/werke', [`Authorization: ${basic('personal:personal')}`]),
  );
  await raw(
    { name: 'wrong password', status: 401, request: 'GET /werke HTTP/1.1', user: 'anna' },
    get('/werke', [`Authorization: ${basic('anna:falsch')}`]),
  );
  await raw(
    { name: 'space in name', status: 401, request: 'GET / HTTP/1.1', user: 'bob smith', exoticUser: true },
    get('/', [`Authorization: ${basic('bob smith:pw')}`]),
  );
  await raw(
    {
      name: 'quote in name',
      status: 401,
      request: 'GET / HTTP/1.1',
      user: 'o\\"neil\\\\x',
      exoticUser: true,
    },
    get('/', [`Authorization: ${basic('o"neil\\x:pw')}`]),
  );
  await raw(
    { name: 'UTF-8 name', status: 401, request: 'GET / HTTP/1.1', user: 'j\\xc3\\xbcrgen', exoticUser: true },
    get('/', [`Authorization: ${basic('j\xc3\xbcrgen:pw')}`]),
  );
  await raw(
    { name: 'empty name', status: 401, request: 'GET / HTTP/1.1', user: '""', exoticUser: true },
    get('/', [`Authorization: ${basic(':pw')}`]),
  );

  // Quotes, backslashes, control and UTF-8 bytes in the query, Referer and User-Agent.
  await raw(
    {
      name: 'hostile headers',
      status: 200,
      request: 'GET /werke?q=%22x%22%5C HTTP/1.1',
      referer: 'http://evil.example/\\"quoted\\" \\\\back',
      ua: 'Mozilla \\"5.0\\" \\\\ caf\\xc3\\xa9 \\t x',
    },
    get('/werke?q=%22x%22%5C', [
      'Referer: http://evil.example/"quoted" \\back',
      'User-Agent: Mozilla "5.0" \\ caf\xc3\xa9 \t x',
    ]),
  );
  // A control character (ESC) in a field value: httpd refuses it under Strict (AH02427) before
  // the field enters its header table, so the User-Agent is not logged.
  await raw(
    { name: 'ESC in UA', status: 400, request: 'GET /werke HTTP/1.1', ua: '-' },
    get('/werke', ['User-Agent: \x1b[31mred']),
  );
  // Raw quotes and a backslash in the target: served, and escaped in %r.
  await raw(
    { name: 'quote in target', status: 200, request: 'GET /werke?a=\\"b\\"\\\\c HTTP/1.1' },
    get('/werke?a="b"\\c'),
  );
  await raw(
    { name: 'empty UA', status: 200, request: 'GET / HTTP/1.1', referer: '', ua: '' },
    get('/', ['User-Agent:', 'Referer:']),
  );
  await raw(
    { name: 'SQL injection', status: 200, request: "GET /werke?q=1'%20OR%20'1'='1 HTTP/1.1" },
    get("/werke?q=1'%20OR%20'1'='1"),
  );
  await raw(
    // Above the root once normalised: httpd's AH10244, before any handler.
    { name: 'traversal', status: 400, request: 'GET /static/../../etc/passwd HTTP/1.1' },
    get('/static/../../etc/passwd'),
  );

  // What Node's parser rejects: answered and logged by createHttpServer, as httpd does.
  await raw(
    { name: 'garbage', status: 400, request: '\\x01\\x02garbage' },
    Buffer.from('\x01\x02garbage\r\n\r\n', 'latin1'),
  );
  await raw({ name: 'TLS', status: 400, request: '\\x16\\x03\\x01\\x02' }, clientHello());
  await raw(
    { name: 'NUL', status: 400, request: 'GET /a' },
    Buffer.from('GET /a\x00b HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'),
  );
  await raw(
    { name: '9 KB line', status: 414, request: 'GET /' + 'a'.repeat(8186) },
    get('/' + 'a'.repeat(9 * 1024)),
  );
  await raw({ name: 'lower-case method', status: 501, request: 'get / HTTP/1.1' }, get('/', [], 'get'));
  await raw(
    { name: 'raw space in target', status: 400, request: 'GET /a b.txt' },
    Buffer.from('GET /a b.txt HTTP/1.1\r\nHost: x\r\n\r\n'),
  );
  await raw(
    { name: 'missing Host', status: 400, request: 'GET / HTTP/1.1' },
    Buffer.from('GET / HTTP/1.1\r\n\r\n'),
  );
  await raw(
    { name: 'bad header', status: 400, request: 'GET / HTTP/1.1' },
    Buffer.from('GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n'),
  );
  return sent;
}
