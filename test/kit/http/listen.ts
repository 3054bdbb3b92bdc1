// A resource-layer application on a real socket — its own server through `serverFactory`, so
// the cache front and the lean path are in front of Fastify as in production — counting the
// requests that reached Fastify at all (its first onRequest hook). The tests of what is
// answered in front of Fastify (cache-front.test.ts, lean-get.test.ts) share it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { createResourceApp } from '../../../src/http/app/create-app.ts';
import type { ResourceAppOptions } from '../../../src/http/app/options.ts';

export interface Listening {
  readonly port: number;
  /** Keep-alive, so requests share connections as a client's would. */
  readonly agent: http.Agent;
}

export async function listenCounting(
  t: Pick<TestContext, 'after'>,
  options: Omit<ResourceAppOptions, 'serverFactory' | 'configure'>,
  reachedFastify: () => void,
): Promise<Listening> {
  const app = await createResourceApp({
    ...options,
    serverFactory: (handler) => http.createServer(handler),
    configure: (fastify) => {
      fastify.addHook('onRequest', (_request, _reply, done) => {
        reachedFastify();
        done();
      });
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(() => app.close());
  const agent = new http.Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  return { port: (app.server.address() as AddressInfo).port, agent };
}
