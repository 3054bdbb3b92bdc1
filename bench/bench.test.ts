// Unit tests of the benchmark's parsing and arithmetic (not of performance):
// node --test bench/bench.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { jsonPathOf } from './cases.ts';
import { parseWrkOutput } from './load.ts';
import { medianOf, type Measurement } from './measure.ts';
import { parseBenchOptions } from './options.ts';
import { fastifyRatios, harnessEnv, peerMedians, PEER_SERVERS } from './peers.ts';
import { fileGroup } from './profile.ts';
import { processCpuSeconds } from './server.ts';

const WRK = `Running 2s test @ http://127.0.0.1:3917/personen/goethe.json
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    26.07ms   44.81ms 434.96ms   94.65%
    Req/Sec     0.92k   228.05     1.25k    77.50%
  Latency Distribution
     50%  815.00us
     75%   19.73ms
     90%   27.33ms
     99%    1.20s
  3650 requests in 2.00s, 5.60MB read
  Socket errors: connect 0, read 1, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:   1822.54
Transfer/sec:      2.79MB
`;

test('wrk output: totals, rate, p50/p99 in ms whatever the unit, errors', () => {
  assert.deepEqual(parseWrkOutput(WRK), {
    requests: 3650,
    seconds: 2,
    requestsPerSecond: 1822.54,
    p50Ms: 0.815,
    p99Ms: 1200,
    non2xx: 7,
    errors: 4,
  });
  assert.throws(() => parseWrkOutput('unable to connect'), /unexpected output/);
});

test('options: defaults, --quick, flags over env, bad values', () => {
  const full = parseBenchOptions([], {});
  assert.ok(full !== 'help');
  assert.equal(full.seconds, 10);
  assert.equal(full.works, 100_000);
  const quick = parseBenchOptions(['--quick', '--connections=8'], {
    BENCH_CONNECTIONS: '64',
    BENCH_SECONDS: '5',
  });
  assert.ok(quick !== 'help');
  assert.deepEqual([quick.seconds, quick.connections, quick.rounds], [5, 8, 1]);
  assert.equal(parseBenchOptions(['--help'], {}), 'help');
  assert.throws(() => parseBenchOptions(['--seconds', 'x'], {}), /--seconds must be a number/);
  assert.throws(() => parseBenchOptions(['--tool=ab'], {}), /wrk or autocannon/);
  assert.throws(() => parseBenchOptions(['--nope'], {}), /unknown option --nope/);
});

test('options: --cache-mib (or BENCH_CACHE_MIB) sizes the server cache; 0 turns it off', () => {
  const unset = parseBenchOptions([], {});
  assert.ok(unset !== 'help');
  assert.equal(unset.cacheMib, undefined);
  const off = parseBenchOptions(['--cache-mib=0'], {});
  assert.ok(off !== 'help');
  assert.equal(off.cacheMib, 0);
  const env = parseBenchOptions([], { BENCH_CACHE_MIB: '8' });
  assert.ok(env !== 'help');
  assert.equal(env.cacheMib, 8);
  assert.throws(() => parseBenchOptions(['--cache-mib', '-1'], {}), /--cache-mib must be a number ≥ 0/);
});

test('--peers: only the knobs given override the harness defaults', () => {
  const plain = parseBenchOptions(['--peers'], {});
  assert.ok(plain !== 'help');
  assert.equal(plain.peers, true);
  assert.deepEqual([...plain.given], []);
  const some = parseBenchOptions(['--peers', '--rounds=1', '--seconds', '3'], {});
  assert.ok(some !== 'help');
  assert.deepEqual([...some.given].sort(), ['rounds', 'seconds']);
  const env = harnessEnv(
    '/repo',
    '/repo/tmp/peer-bench',
    { rounds: 1, seconds: 3 },
    { ROUNDS: '3', POLL_IDLE: '1' },
  );
  assert.equal(env.ROUNDS, '1');
  assert.equal(env.DURATION, '3s');
  assert.equal(env.WARMUP, undefined);
  assert.equal(env.POLL_IDLE, '1');
  assert.equal(env.SHELFMARK_ROOT, '/repo');
  assert.equal(env.SERVERS, PEER_SERVERS.join(' '));
  const pg = harnessEnv('/repo', '/w', { pg: 'postgres://h/db' }, {});
  assert.match(pg.SERVERS!, / shelfmark-pg$/);
  assert.equal(pg.SHELFMARK_PG_URL, 'postgres://h/db');
  assert.equal(pg.SHELFMARK_BENCH_NODE_ARGS, undefined, 'no cache flag: the default size');
});

test('peers with --cache-mib: the product process starts with that cache size', () => {
  const env = harnessEnv('/repo', '/w', { cacheMib: 0 }, {});
  // As the harness's script passes it: unquoted, split on blanks, before the entry point.
  const args = env.SHELFMARK_BENCH_NODE_ARGS!.split(/\s+/);
  const seen = spawnSync(process.execPath, [...args, '-e', 'console.log(process.env.SHELFMARK_CACHE_MIB)'], {
    encoding: 'utf8',
  });
  assert.equal(seen.stdout.trim(), '0', seen.stderr);
});

test('peer table: medians per server and format, ratios to Fastify on CPU and req/s', () => {
  const head = 'round\tserver\tformat\trps\tsrv_cpu_us_per_req\tdb_cpu_us_per_req';
  const rows = [
    '1\tfastify\tjson\t1000\t50\t0',
    '2\tfastify\tjson\t3000\t40\t0',
    '3\tfastify\tjson\t2000\t60\t0',
    '1\tshelfmark-pg\tjson\t500\t100\t100',
  ];
  const medians = peerMedians([head, ...rows].join('\n'));
  assert.deepEqual(medians.get('fastify/json'), { cpu: 50, rps: 2000, db: 0 });
  const table = fastifyRatios(medians);
  assert.equal(table[3], '| shelfmark-pg | json | 100 | 100 | 4.00 | 0.25 |');
});

test('a naechste link becomes the JSON suffix path with its cursor', () => {
  assert.equal(
    jsonPathOf('http://localhost:1/werke?q=der&nach=WyJ4Iiw1XQ'),
    '/werke.json?q=der&nach=WyJ4Iiw1XQ',
  );
  assert.equal(jsonPathOf('http://localhost:1/werke.json?nach=abc'), '/werke.json?nach=abc');
});

test('medianOf takes each figure apart; sums errors', () => {
  const run = (rps: number, cpu: number, errors: number): Measurement => ({
    name: 'x',
    path: '/x',
    load: {
      requests: rps * 10,
      seconds: 10,
      requestsPerSecond: rps,
      p50Ms: rps / 100,
      p99Ms: 1,
      non2xx: 0,
      errors,
    },
    cpuUsPerRequest: cpu,
  });
  const m = medianOf([run(100, 30, 1), run(300, 10, 0), run(200, 20, 2)]);
  assert.deepEqual(
    [m.load.requestsPerSecond, m.cpuUsPerRequest, m.load.p50Ms, m.load.errors],
    [200, 20, 2, 3],
  );
});

test('profile groups: packages, project files, node internals', () => {
  assert.equal(fileGroup('file:///w/node_modules/fastify/lib/reply.js'), 'fastify');
  assert.equal(fileGroup('file:///w/node_modules/@fastify/cookie/x.js'), '@fastify/cookie');
  assert.equal(fileGroup('file:///work/main/src/logging/escape.ts'), 'src/logging/escape.ts');
  assert.equal(fileGroup('node:events'), 'node:events');
});

test(
  'CPU seconds of a process from /proc, undefined for none',
  { skip: process.platform !== 'linux' },
  () => {
    const cpu = processCpuSeconds(process.pid);
    assert.ok(cpu !== undefined && cpu >= 0);
    assert.equal(processCpuSeconds(2 ** 30), undefined);
  },
);
