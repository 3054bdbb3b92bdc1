import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseModStatus } from '../../../test/support/mod-status.ts';
import { aprG, autoText, summarize, uptimeText, type ServerStatus } from './report.ts';

test("aprG writes numbers as APR's %g does in mod_status", () => {
  assert.equal(aprG(3), '3');
  assert.equal(aprG(1024), '1024');
  assert.equal(aprG(1024 / 3), '341.333');
  assert.equal(aprG(0.0813), '.0813');
  assert.equal(aprG(0.00259347), '.00259347');
  assert.equal(aprG(2.06627), '2.06627');
  assert.equal(aprG(0), '0');
  assert.equal(aprG(123456), '123456');
  assert.equal(aprG(1500000), '1.5e+6');
  assert.equal(aprG(0.00001), '1e-5');
  assert.equal(aprG(-2.5), '-2.5');
});

test('uptimeText is show_time: zero parts left out, singular for one', () => {
  assert.equal(uptimeText(1), '1 second');
  assert.equal(uptimeText(256028), '2 days 23 hours 7 minutes 8 seconds');
  assert.equal(uptimeText(3600), '1 hour');
  assert.equal(uptimeText(0), '');
});

const snap = (pid: number, accesses: number, bytes: number, busy = 0) => ({
  pid,
  accesses,
  bytes,
  durationMs: accesses * 2,
  busy,
  cpuUser: 0.5,
  cpuSystem: 0.25,
});

const STATUS: ServerStatus = {
  serverVersion: 'Shelfmark/0.1.0 (Node.js v24.0.0)',
  startMs: Date.UTC(2026, 10, 22, 12, 0, 0),
  restartMs: Date.UTC(2026, 10, 22, 12, 0, 0),
  nowMs: Date.UTC(2026, 10, 22, 12, 0, 10),
  generation: 0,
  slots: [
    { state: 'W', snapshot: snap(11, 4, 3000, 1) },
    { state: '_', snapshot: snap(12, 5, 2000) },
    { state: '.' },
  ],
  gone: { accesses: 1, bytes: 1000, durationMs: 7, cpuUser: 1, cpuSystem: 1 },
  load: [0.5, 0.25, 1],
};

test('summarize adds every live slot and what exited processes had counted', () => {
  const s = summarize(STATUS);
  assert.equal(s.accesses, 10);
  assert.equal(s.bytes, 6000);
  assert.equal(s.kBytes, 5);
  assert.equal(s.durationMs, 25);
  assert.equal(s.uptime, 10);
  assert.deepEqual([s.busy, s.idle, s.graceful, s.scoreboard], [1, 1, 0, 'W_.']);
});

test('autoText is mod_status ?auto: its keys in its order, numbers a reader accepts', () => {
  const text = autoText(STATUS, 'library.example');
  const parsed = parseModStatus(text);
  assert.equal(parsed.host, 'library.example');
  assert.equal(parsed.number('Total Accesses'), 10);
  assert.equal(parsed.number('Total kBytes'), 5);
  assert.equal(parsed.number('ReqPerSec'), 1);
  assert.equal(parsed.number('BytesPerReq'), 512);
  assert.equal(parsed.fields.get('ServerUptime'), '10 seconds');
  assert.equal(parsed.fields.get('Load1'), '0.50');
  // Apache 2.4's prefork order (test/support/fixtures/apache-server-status-auto.txt), less
  // `Server Built` (Shelfmark has no build), plus CPULoad as httpd writes it when CPU was used.
  assert.deepEqual(
    [...parsed.fields.keys()],
    [
      'ServerVersion',
      'ServerMPM',
      'CurrentTime',
      'RestartTime',
      'ParentServerConfigGeneration',
      'ParentServerMPMGeneration',
      'ServerUptimeSeconds',
      'ServerUptime',
      'Load1',
      'Load5',
      'Load15',
      'Total Accesses',
      'Total kBytes',
      'Total Duration',
      'CPUUser',
      'CPUSystem',
      'CPUChildrenUser',
      'CPUChildrenSystem',
      'CPULoad',
      'Uptime',
      'ReqPerSec',
      'BytesPerSec',
      'BytesPerReq',
      'DurationPerReq',
      'BusyWorkers',
      'GracefulWorkers',
      'IdleWorkers',
      'Scoreboard',
    ],
  );
});
