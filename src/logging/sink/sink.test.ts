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
