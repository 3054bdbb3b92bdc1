import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatErrorLine, type Level } from './format.ts';
import { readErrorLogTail } from './tail.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-tail-'));
const line = (i: number, level: Level = 'warn') =>
  formatErrorLine({
    module: 'shelfmark',
    level,
    message: `entry ${i} café`,
    pid: 7,
    epochUs: 1_700_000_000_000_000 + i,
  });

test('the last N entries of a big file, newest first, reading only its tail', async () => {
  const file = path.join(dir, 'big.log');
  const lines = Array.from({ length: 200_000 }, (_, i) => line(i));
  writeFileSync(file, lines.join('\n') + '\n');
  const size = Buffer.byteLength(lines.join('\n') + '\n');
  assert.ok(size > 10 * 1024 * 1024);
  const tail = await readErrorLogTail(file, { count: 3, chunkBytes: 4096 });
  assert.deepEqual(
    tail.entries.map((e) => ('message' in e ? e.message : e.raw)),
    ['entry 199999 caf\\xc3\\xa9', 'entry 199998 caf\\xc3\\xa9', 'entry 199997 caf\\xc3\\xa9'],
  );
  assert.equal(tail.scannedBytes, 4096);
  assert.equal(tail.truncated, false);
});

test('lines cut by chunk boundaries are joined; the first line of the file is included', async () => {
  const file = path.join(dir, 'small.log');
  writeFileSync(file, 'not an entry at all\n' + [1, 2, 3].map((i) => line(i)).join('\n') + '\n');
  const tail = await readErrorLogTail(file, { count: 10, chunkBytes: 7 });
  assert.equal(tail.entries.length, 4);
  assert.deepEqual(tail.entries[3], { raw: 'not an entry at all' });
  assert.equal('message' in tail.entries[0]! && tail.entries[0].message, 'entry 3 caf\\xc3\\xa9');
});

test('a level filter keeps entries at or above it (and unparsed lines)', async () => {
  const file = path.join(dir, 'levels.log');
  const levels: Level[] = ['info', 'error', 'notice', 'warn', 'debug', 'crit'];
  writeFileSync(file, levels.map((l, i) => line(i, l)).join('\n') + '\nraw tail\n');
  const tail = await readErrorLogTail(file, { minLevel: 'warn' });
  assert.deepEqual(
    tail.entries.map((e) => ('level' in e ? e.level : 'raw')),
    ['raw', 'crit', 'warn', 'error'],
  );
});

test('a rare level stops at maxScanBytes and says so', async () => {
  const file = path.join(dir, 'rare.log');
  writeFileSync(
    file,
    line(0, 'error') + '\n' + Array.from({ length: 1000 }, (_, i) => line(i, 'info')).join('\n'),
  );
  const tail = await readErrorLogTail(file, { minLevel: 'error', maxScanBytes: 1000, chunkBytes: 300 });
  assert.deepEqual(tail.entries, []);
  assert.equal(tail.scannedBytes, 1000);
  assert.equal(tail.truncated, true);
});

test('a missing file is an empty log', async () => {
  const tail = await readErrorLogTail(path.join(dir, 'missing.log'));
  assert.deepEqual(tail, { entries: [], scannedBytes: 0, truncated: false });
});
