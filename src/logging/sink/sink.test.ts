import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogSink } from './sink.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sink-'));

test('batches whole lines and reopens after rotation without loss or duplicates', async () => {
  const file = path.join(tmp(), 'a.log');
  const sink = createLogSink(file, 'stdout');
  for (let i = 0; i < 1000; i++) sink.write(`line ${i}`);
  fs.renameSync(file, file + '.1');
  await sink.reopen();
  for (let i = 1000; i < 2000; i++) sink.write(`line ${i}`);
  await sink.close();
  const all = [file + '.1', file].flatMap((f) => fs.readFileSync(f, 'latin1').split('\n').filter(Boolean));
  assert.deepEqual(
    all,
    Array.from({ length: 2000 }, (_, i) => `line ${i}`),
  );
});

test('a failing file is reported once and never throws; lines return when it works again', async () => {
  const dir = tmp();
  const file = path.join(dir, 'sub', 'b.log');
  const reports: string[] = [];
  const sink = createLogSink(file, 'stdout', { retryMs: 5, report: (m) => reports.push(m) });
  sink.write('one');
  await sink.flush();
  fs.rmSync(path.join(dir, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'sub'), 'a file where the directory was');
  await sink.reopen(); // cannot reopen: keeps the old (deleted) file, says so once
  await sink.reopen();
  assert.equal(reports.filter((r) => r.includes('cannot reopen')).length, 1);
  fs.rmSync(path.join(dir, 'sub'));
  await sink.reopen();
  sink.write('two');
  await sink.close();
  assert.equal(fs.readFileSync(file, 'latin1'), 'two\n');
});

test('by turn: the lines of one turn are written together when it ends, then what waits for them', async () => {
  const file = path.join(tmp(), 'c.log');
  const sink = createLogSink(file, 'stdout', { turn: true });
  const seen: string[] = [];
  sink.write('one');
  sink.write('two');
  sink.afterWritten(() => seen.push(fs.readFileSync(file, 'latin1')));
  assert.equal(fs.readFileSync(file, 'latin1'), '', 'nothing is written before the turn ends');
  assert.equal(seen.length, 0, 'nor has anything waiting run');
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.deepEqual(seen, ['one\ntwo\n'], 'the waiting callback runs after the lines are in the file');
  sink.afterWritten(() => seen.push('at once'));
  assert.deepEqual(seen, ['one\ntwo\n', 'at once'], 'with no line pending, at once');
  await sink.close();
});

test('by turn: flushSync, reopen and close write the pending lines first', async () => {
  const file = path.join(tmp(), 'd.log');
  const sink = createLogSink(file, 'stdout', { turn: true, maxBatchBytes: 16 });
  for (let i = 0; i < 10; i++) sink.write(`line ${i}`);
  sink.flushSync();
  assert.equal(
    fs.readFileSync(file, 'latin1').split('\n').filter(Boolean).length,
    10,
    'in batches ≤ 16 bytes',
  );
  sink.write('before rotation');
  fs.renameSync(file, file + '.1');
  await sink.reopen();
  sink.write('after rotation');
  await sink.close();
  assert.match(fs.readFileSync(file + '.1', 'latin1'), /before rotation\n$/);
  assert.equal(fs.readFileSync(file, 'latin1'), 'after rotation\n');
});
