// The change feed's own connection (ADR 0105) fails as the pool's queries do: a database that
// cannot be reached is a transient storage error (a 503 with Retry-After), and it is tried again.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { UnavailableError } from '../errors.ts';
import { ownConnection } from './own-connection.ts';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('an unreachable database is an UnavailableError, on every try', async () => {
  const port = await closedPort();
  const own = ownConnection({ host: '127.0.0.1', port, user: 'nobody', database: 'none' }, () => undefined);
  try {
    for (let i = 0; i < 2; i++)
      await assert.rejects(
        own.query('s1', 'select 1', []),
        (error: unknown) => error instanceof UnavailableError,
      );
  } finally {
    await own.close();
  }
});
