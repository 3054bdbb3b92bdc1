// A supervised Shelfmark-like server for the load tests: node cluster-fixture.ts PORT DIR WORKERS
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runSupervisor } from '../../src/cli/supervisor.ts';
import { createAccessLog, createErrorLog, createLogSink } from '../../src/logging/index.ts';
import { createHttpServer } from '../../src/server/index.ts';
import { fixtureHandler } from './fixture-app.ts';

const [port, dir, workers] = process.argv.slice(2);
const errorPath = path.join(dir!, 'error.log');

await runSupervisor({
  workers: Number(workers ?? 2),
  graceMs: 5000,
  serverVersion: 'Shelfmark/test',
  errorLog: () => createErrorLog(createLogSink(errorPath, 'stderr'), { level: 'warn' }),
  async startWorker() {
    const accessSink = createLogSink(path.join(dir!, 'access.log'), 'stdout');
    const errorSink = createLogSink(errorPath, 'stderr');
    const errorLog = createErrorLog(errorSink, { level: 'warn' });
    const app = fixtureHandler(errorLog);
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/pid') return void res.end(String(process.pid));
      if (req.url === '/crash') {
        setImmediate(() => {
          throw new TypeError('worker crash outside a request');
        });
        return void res.end('crashing');
      }
      app(req, res);
    };
    const server = createHttpServer({ handler, accessLog: createAccessLog(accessSink), errorLog });
    await new Promise<void>((r) => server.listen(Number(port), '127.0.0.1', r));
    process.send?.({ ready: process.pid });
    return {
      errorLog,
      async stop(graceMs) {
        await server.stop(graceMs);
        await accessSink.close();
        await errorSink.close();
      },
      async reopenLogs() {
        await Promise.all([accessSink.reopen(), errorSink.reopen()]);
      },
    };
  },
});
