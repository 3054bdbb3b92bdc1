import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseModStatus } from './mod-status.ts';

const APACHE = fs.readFileSync(
  path.join(import.meta.dirname, 'fixtures/apache-server-status-auto.txt'),
  'latin1',
);

test('parseModStatus reads what Apache httpd 2.4.71 (prefork) wrote for /server-status?auto', () => {
  const s = parseModStatus(APACHE);
  assert.equal(s.host, '127.0.0.1');
  assert.equal(s.number('Total Accesses'), 3);
  assert.equal(s.number('BytesPerReq'), 341.333);
  assert.equal(s.fields.get('ServerMPM'), 'prefork');
  assert.match(s.scoreboard, /^_W\.+$/);
});

test('parseModStatus refuses what a reader of mod_status would fail on', () => {
  const broken = (from: string, to: string) => () => parseModStatus(APACHE.replace(from, to));
  assert.throws(broken('Total Accesses: 3', 'Total Accesses: three'), /Total Accesses/);
  assert.throws(broken('Total Accesses: 3', 'Total Accesses: 3.5'), /whole number/);
  assert.throws(broken('ServerVersion: Apache/2.4.71', 'ServerVersion: Apache/2.4'), /ServerVersion/);
  assert.throws(broken('Scoreboard: _W', 'Scoreboard: _X'), /character/);
  assert.throws(broken('IdleWorkers: 1', 'IdleWorkers: 2'), /IdleWorkers/);
  assert.throws(broken('BusyWorkers: 1', 'BusyWorkers: 0'), /BusyWorkers/);
  assert.throws(broken('Uptime: 1\n', ''), /missing Uptime/);
  assert.throws(broken('127.0.0.1\n', ''), /host name/);
  assert.throws(broken('Load1: 4.29', 'Load1 4.29'), /Key: value/);
  assert.doesNotThrow(broken('ReqPerSec: 3', 'ReqPerSec: .0813'));
  assert.doesNotThrow(broken('BytesPerSec: 1024', 'BytesPerSec: 1.5e+6'));
});
