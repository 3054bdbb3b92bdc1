// Development (`npm run dev`: one process, displayErrors on): when the application cannot be
// loaded or started, every request is answered 500 with the displayErrors page describing that
// error — class, message, file, line, source — in the negotiated format, and written to the
// access log, until the file is fixed and `node --watch` restarts the process (it watches the
// broken file too). The error was logged once at start (boot.ts); requests do not repeat it.
// The page comes from the resource layer; should the layer itself be what fails to load, a
// plain-text answer says the same.
import http from 'node:http';
import type { Config } from '../config/index.ts';
import {
  createAccessLog,
  createLogSink,
  describeError,
  errorLogMessage,
  type ErrorLog,
} from '../logging/index.ts';

export interface FailureServer {
  readonly port: number;
  stop(): Promise<void>;
}

async function layerServer(config: Config, error: unknown, errorLog: ErrorLog): Promise<http.Server> {
  const [{ createResourceApp }, { createHttpServer }] = await Promise.all([
    import('../http/index.ts'),
    import('../server/index.ts'),
  ]);
  const fail = () => Promise.reject(error);
  const accessLog =
    config.accessLog === 'off'
      ? undefined
      : createAccessLog(createLogSink(config.accessLog, 'stdout'), config.accessLogFormat);
  const app = await createResourceApp({
    baseUrl: config.baseUrl,
    trustProxy: config.trustProxy,
    // Every path is this one resource, and every method of it fails with the start-up error.
    resources: [
      { name: 'cannot-start', path: '/', methods: { GET: fail, POST: fail, PUT: fail, DELETE: fail } },
    ],
    rewrites: [{ pattern: /^\/.+$/, target: '/' }],
    displayErrors: true,
    reportError: () => {},
    handlesClientErrors: true,
    serverFactory: (handler) =>
      createHttpServer({ handler, accessLog, errorLog, trustProxy: config.trustProxy }),
  });
  await app.listen({ port: config.port, host: config.host });
  return app.server;
}

function plainServer(config: Config, error: unknown): Promise<http.Server> {
  const text = errorLogMessage(describeError(error)) + '\n';
  const server = http.createServer((_req, res) => {
    res.writeHead(500, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server));
  });
}

export async function serveStartFailure(
  config: Config,
  error: unknown,
  errorLog: ErrorLog,
): Promise<FailureServer> {
  let server: http.Server;
  try {
    server = await layerServer(config, error, errorLog);
  } catch (layerError) {
    // The resource layer (or the HTTP server) is what cannot load: answer in plain text.
    errorLog.log(
      'debug',
      'shelfmark',
      'displayErrors page unavailable: ' + errorLogMessage(describeError(layerError)),
    );
    server = await plainServer(config, error);
  }
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : config.port,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
