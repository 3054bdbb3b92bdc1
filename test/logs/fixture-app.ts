// A tiny application standing in for the catalogue (whose routes are not ready): the pages of
// the Apache ground truth (/ok.php, /secret/ …) answered as that Apache answered them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccessLog, createErrorLog, createLogSink, basicAuthUser } from '../../src/logging/index.ts';
import type { ErrorLog, LogSink, Level } from '../../src/logging/index.ts';
import { createHttpServer, type ServerLimits, type ShelfmarkServer } from '../../src/server/index.ts';

const USERS: Record<string, string> = { alice: 'wonderland', 'bob smith': 'pw' };
/** %u of the requests whose password was right (createHttpServer's accessUser). */
const authenticated = new WeakMap<IncomingMessage, string>();

export function fixtureHandler(errorLog: ErrorLog | undefined) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '';
    const pathname = url.replace(/^https?:\/\/[^/]*/, '').split('?')[0];
    const send = (status: number, body = '', headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=UTF-8', ...headers });
      res.end(body);
    };
    try {
      if (req.method === 'OPTIONS' && url === '*') return send(200, '', { Allow: 'GET,HEAD,POST,OPTIONS' });
      switch (pathname) {
        case '/ok.php':
          return send(200, 'Hello world\n');
        case '/echo_input.php': {
          let n = 0;
          req.on('data', (c: Buffer) => (n += c.length));
          req.on('end', () => send(200, `read ${n} bytes`.padEnd(13)));
          return;
        }
        case '/secret/': {
          const raw = req.headers.authorization;
          const user = basicAuthUser(raw);
          const pw = raw ? Buffer.from(raw.slice(6), 'base64').toString('latin1').split(':').slice(1).join(':') : '';
          if (user !== undefined && USERS[user] === pw) {
            authenticated.set(req, user);
            return send(200, `Hello ${user}\n`);
          }
          return send(401, 'Unauthorized', { 'WWW-Authenticate': 'Basic realm="secret"' });
        }
        case '/forbidden.php':
          return send(403, 'Forbidden!');
        case '/parse.php':
        case '/divzero.php':
        case '/exception.php':
          throw new RangeError(`boom "quoted" back\\slash in ${pathname}`);
        case '/warning.php':
          errorLog?.warning(`Undefined variable $undefinedVar in ${pathname}`, req);
          return send(200, 'warn\n');
        case '/errorlog.php':
          errorLog?.log('notice', 'shelfmark', 'custom msg: quote" backslash\\ tab\t ctrl\x01 utf8 café newline\nsecond line', undefined);
          return send(200, 'logged\n');
        case '/empty.php':
          return send(204);
        case '/static.txt':
          if (req.headers['if-modified-since']) return send(304);
          return send(200, 'static\n');
        case '/stream':
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.write('abc');
          res.write(Buffer.from('defg'));
          return void res.end('é');
        default:
          return send(404, 'Not Found\n');
      }
    } catch (err) {
      errorLog?.requestError(err, req);
      res.writeHead(500);
      res.end();
    }
  };
}

export interface TestServer {
  readonly server: ShelfmarkServer;
  readonly port: number;
  readonly dir: string;
  readonly accessPath: string;
  readonly errorPath: string;
  readonly accessSink: LogSink;
  readonly errorSink: LogSink;
  readonly errorLog: ErrorLog;
  /** Flushes both logs and returns the access-log lines so far. */
  accessLines(): Promise<string[]>;
  errorLines(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: { format?: string; level?: Level; limits?: Partial<ServerLimits>; trustProxy?: string[] } = {},
): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-logs-'));
  const accessPath = path.join(dir, 'access.log');
  const errorPath = path.join(dir, 'error.log');
  const accessSink = createLogSink(accessPath, 'stdout');
  const errorSink = createLogSink(errorPath, 'stderr');
  // The fixture app lives in test/, so the "project" for error locations is the repository.
  const srcRoot = new URL('../../', import.meta.url).pathname;
  const errorLog = createErrorLog(errorSink, { level: options.level ?? 'info', describe: { srcRoot } });
  const server = createHttpServer({
    handler: fixtureHandler(errorLog),
    accessLog: createAccessLog(accessSink, options.format ?? 'combined'),
    errorLog,
    trustProxy: options.trustProxy,
    limits: options.limits,
    accessUser: (req) => authenticated.get(req),
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const read = async (sink: LogSink, p: string) => {
    await sink.flush();
    return fs.readFileSync(p, 'latin1').split('\n').filter(Boolean);
  };
  return {
    server,
    port,
    dir,
    accessPath,
    errorPath,
    accessSink,
    errorSink,
    errorLog,
    accessLines: () => read(accessSink, accessPath),
    errorLines: () => read(errorSink, errorPath),
    async close() {
      await server.stop(1000);
      await accessSink.close();
      await errorSink.close();
    },
  };
}
