// One PostgreSQL connection beside the pool, for the read every request waits for: the change
// feed (ADR 0088, 0105). Through Kysely and the pool that read cost a connection's checkout and
// release (pg-pool's idle timers) and Kysely's executor per call — about 40 % of its Node CPU —
// and it queued for a pooled connection while write transactions held them all. On a connection
// of its own it is one named statement (parsed once per connection) answered as arrays, and
// reads queue only behind each other. Connected on the first query; after any error the
// connection is dropped and the next query opens a new one (a terminated backend, a pooler that
// forgot the statement): the caller's read fails, its error mapped as any query's, and the next
// one starts afresh.
import pg from 'pg';
import { mapDatabaseError } from '../errors.ts';

export interface OwnConnection {
  /** The rows as arrays of a named statement `name` (its text the same on every call). */
  query(name: string, text: string, values: readonly unknown[]): Promise<unknown[][]>;
  close(): Promise<void>;
}

export function ownConnection(config: pg.ClientConfig, onError: (error: unknown) => void): OwnConnection {
  let current: Promise<pg.Client> | undefined;
  let closed = false;

  const drop = (client: Promise<pg.Client>) => {
    if (current !== client) return;
    current = undefined;
    client.then((c) => c.end()).catch(() => undefined);
  };
  const open = (): Promise<pg.Client> => {
    const client = new pg.Client(config);
    const connected = client.connect().then(() => client);
    // An error outside a query (the backend went away): reported, and a new connection next time.
    client.on('error', (error) => {
      onError(error);
      drop(connected);
    });
    return connected;
  };

  return {
    async query(name, text, values) {
      if (closed) throw new Error('the connection is closed');
      const client = (current ??= open());
      try {
        const result = await (await client).query({ name, text, values: [...values], rowMode: 'array' });
        return result.rows as unknown[][];
      } catch (error) {
        drop(client);
        // As every other query's error (error-mapping.ts): a database gone is a 503, not a 500.
        throw mapDatabaseError(error);
      }
    },
    async close() {
      closed = true;
      const client = current;
      current = undefined;
      if (client) await client.then((c) => c.end()).catch(() => undefined);
    },
  };
}
