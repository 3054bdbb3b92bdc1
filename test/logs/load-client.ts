// A small keep-alive load client: `total` requests over `connections` sockets, each tagged with
// a unique id so the tests can find every answered request in the log exactly once.
import http from 'node:http';

export interface LoadResult {
  answered: Set<number>;
  failed: number;
}

export async function load(
  port: number,
  total: number,
  connections: number,
  onProgress?: (done: number) => void,
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const answered = new Set<number>();
  let failed = 0;
  let next = 0;
  let done = 0;
  const one = (id: number) =>
    new Promise<void>((resolve) => {
      let settled = false;
      const settle = (ok: boolean) => {
        if (settled) return;
        settled = true;
        if (ok) answered.add(id);
        else failed++;
        resolve();
      };
      const req = http.get({ port, host: '127.0.0.1', path: `/ok.php?id=${id}`, agent }, (res) => {
        res.resume();
        res.on('end', () => settle(res.statusCode === 200));
        res.on('close', () => settle(false)); // aborted mid-response (a worker died)
      });
      req.on('error', () => settle(false));
      // A request caught in a dying worker may never settle otherwise.
      req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < total) {
        await one(next++);
        onProgress?.(++done);
      }
    }),
  );
  agent.destroy();
  return { answered, failed };
}
