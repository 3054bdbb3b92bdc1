// End to end against the real server (src/main.ts startServer, SQLite, real log files): the live
// stream is staff-only and delivers an entry written to the error log as an SSE event.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { startRealApp, type RealApp } from '../../../test/logs-app/real-app.ts';
import type { ResourceDefinition } from '../../http/resource/types.ts';

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:${user}`).toString('base64');

// A handler that throws: its 500 writes an error entry (the test seam of startServer).
const boom: ResourceDefinition = {
  name: 'boom',
  path: '/boom-for-live-test',
  methods: {
    GET: async () => {
      throw new RangeError('live test explosion');
    },
  },
};

let app: RealApp;
before(async () => {
  app = await startRealApp({ demo: true, logLevel: 'warn', extraResources: [boom] });
});
after(() => app.stop());

interface Stream {
  readonly status: number;
  readonly type: string | undefined;
  /** Resolves with the data of the first `event: entry` whose data contains `text`. */
  entry(text: string): Promise<Record<string, unknown>>;
  /** Resolves once the server said it is following (`: following`). */
  readonly following: Promise<void>;
  close(): void;
}

function openStream(path: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${app.base}${path}`,
      { headers: { Accept: 'text/event-stream', ...headers } },
      (res) => {
        res.setEncoding('utf8');
        let buffer = '';
        const events: string[] = [];
        const listeners = new Set<() => void>();
        res.on('data', (chunk: string) => {
          buffer += chunk;
          const blocks = buffer.split('\n\n');
          buffer = blocks.pop()!;
          events.push(...blocks);
          for (const l of listeners) l();
        });
        const waitFor = <T>(pick: () => T | undefined): Promise<T> =>
          new Promise((done) => {
            const check = () => {
              const found = pick();
              if (found !== undefined) {
                listeners.delete(check);
                done(found);
              }
            };
            listeners.add(check);
            check();
          });
        resolve({
          status: res.statusCode!,
          type: res.headers['content-type'],
          following: waitFor(() => (events.includes(': following') ? true : undefined)).then(() => undefined),
          entry: (text) =>
            waitFor(() => {
              const block = events.find((e) => e.startsWith('event: entry\ndata: ') && e.includes(text));
              return block === undefined
                ? undefined
                : (JSON.parse(block.slice('event: entry\ndata: '.length)) as Record<string, unknown>);
            }),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
  });
}

/** Rejects if `promise` has not settled within `ms` (the task: new entries arrive within a second). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

test('anonymous and members are refused (403), staff gets text/event-stream', async () => {
  for (const [headers, status] of [
    [{}, 403],
    [{ Authorization: basic('anna') }, 403],
  ] as const) {
    const res = await fetch(`${app.base}/protokoll/fehler/live`, {
      headers: { Accept: 'text/event-stream', ...headers },
    });
    assert.equal(res.status, status);
    await res.body?.cancel();
  }
  const stream = await openStream('/protokoll/fehler/live', { Authorization: basic('personal') });
  try {
    assert.equal(stream.status, 200);
    assert.equal(stream.type, 'text/event-stream; charset=utf-8');
  } finally {
    stream.close();
  }
});

test('a warning written to the error log arrives as an entry event', async () => {
  const stream = await openStream('/protokoll/fehler/live', { Authorization: basic('personal') });
  try {
    await within(10_000, stream.following);
    const marker = `live-${process.hrtime.bigint()}`;
    app.running.errorLog.warning(`something odd: ${marker} café`);
    const entry = await within(10_000, stream.entry(marker));
    assert.equal(entry.stufe, 'warn');
    assert.equal(entry.modul, 'shelfmark');
    assert.equal(entry.pid, process.pid);
    assert.equal(entry.meldung, `something odd: ${marker} caf\\xc3\\xa9`);
  } finally {
    stream.close();
  }
});

test('a 500 is streamed at ?stufe=error; a warning is filtered out', async () => {
  const stream = await openStream('/protokoll/fehler/live?stufe=error', { Authorization: basic('personal') });
  try {
    await within(10_000, stream.following);
    app.running.errorLog.warning('filtered-out warning');
    const res = await fetch(`${app.base}/boom-for-live-test`, {
      headers: { Referer: 'http://example.com/x' },
    });
    assert.equal(res.status, 500);
    await res.body?.cancel();
    const entry = await within(10_000, stream.entry('live test explosion'));
    assert.equal(entry.stufe, 'error');
    assert.match(String(entry.meldung), /^RangeError: live test explosion in .*live\.test\.ts on line \d+/);
    assert.equal(entry.referer, 'http://example.com/x');
    assert.match(String(entry.client), /^127\.0\.0\.1:\d+$/);
    // Both entries were flushed together, in order: the filtered warning came first and is absent.
    const warning = await Promise.race([stream.entry('filtered-out'), Promise.resolve(null)]);
    assert.equal(warning, null);
  } finally {
    stream.close();
  }
});

test('the page lists the same log and links the stream', async () => {
  const res = await fetch(`${app.base}/protokoll/fehler.json?stufe=warn`, {
    headers: { Authorization: basic('personal') },
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { live: string; eintrag: { meldung?: string }[] };
  assert.equal(body.live, `${app.config.baseUrl}/protokoll/fehler/live?stufe=warn`);
  assert.ok(body.eintrag.some((e) => e.meldung?.startsWith('something odd: live-')));
  const anonymous = await fetch(`${app.base}/protokoll/fehler`);
  assert.equal(anonymous.status, 403);
  await anonymous.body?.cancel();
});
