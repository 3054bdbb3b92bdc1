// What access logging costs: the same tiny handler served by (a) plain node:http, (b) Shelfmark's
// server without an access log, (c) with the combined access log to a file. Reports req/s and
// CPU microseconds per request (this process: server and log writer).
// node bench/access-log.bench.ts [seconds=5] [connections=64]
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createHttpServer } from '../src/server/index.ts';
import { createAccessLog, createLogSink } from '../src/logging/index.ts';

interface CannonResult {
  requests: { total: number; average: number };
  latency: { p99: number };
  errors: number;
}
// autocannon ships no type declarations.
const autocannon = createRequire(import.meta.url)('autocannon') as (o: object) => Promise<CannonResult>;

const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 64);
const handler = (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.setHeader('Content-Type', 'text/plain');
  res.end('Hello world\n');
};

async function measure(name: string, server: http.Server): Promise<void> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/ok.php?q=1`;
  await autocannon({ url, connections, duration: 1 }); // warm-up
  const cpu0 = process.cpuUsage();
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { 'user-agent': 'bench/1.0' },
  });
  const cpu = process.cpuUsage(cpu0);
  const total = result.requests.total;
  // autocannon runs in this process too: its CPU is included in every variant alike.
  console.log(
    `${name.padEnd(28)} ${Math.round(result.requests.average).toString().padStart(7)} req/s  ` +
      `${((cpu.user + cpu.system) / total).toFixed(1).padStart(6)} µs CPU/request  p99 ${result.latency.p99} ms  errors ${result.errors}`,
  );
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-access-'));
const sink = createLogSink(path.join(dir, 'access.log'), 'stdout');
await measure('node:http (baseline)', http.createServer(handler));
await measure('shelfmark server, log off', createHttpServer({ handler }));
await measure('shelfmark server, log on', createHttpServer({ handler, accessLog: createAccessLog(sink) }));
await sink.close();
const lines = fs.readFileSync(path.join(dir, 'access.log'), 'latin1').split('\n').filter(Boolean).length;
console.log(
  `access.log: ${lines} lines; sample: ${fs.readFileSync(path.join(dir, 'access.log'), 'latin1').split('\n')[0]}`,
);
