import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openCommitMark } from './sqlite-commit-mark.ts';

const tmpFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'commit-mark-')), 'db.sqlite');

test('the mark moves with every commit, of this process or another, and with nothing else', () => {
  const file = tmpFile();
  const db = new DatabaseSync(file);
  db.exec('pragma journal_mode = wal; create table t (n integer)');
  const mark = openCommitMark(file);
  assert.ok(mark, 'a database in WAL mode has a mark');
  const before = mark.read();
  assert.ok(before);
  db.prepare('select count(*) from t').all();
  assert.equal(mark.read(), before, 'a read commits nothing');
  db.exec('insert into t values (1)');
  const afterOwn = mark.read();
  assert.notEqual(afterOwn, before, 'a commit of this process');
  db.exec('begin; insert into t values (2); rollback');
  assert.equal(mark.read(), afterOwn, 'a rolled-back transaction commits nothing');
  const other = spawnSync(process.execPath, [
    '-e',
    `new (require('node:sqlite').DatabaseSync)(${JSON.stringify(file)}).exec('insert into t values (3)')`,
  ]);
  assert.equal(other.status, 0, String(other.stderr));
  assert.notEqual(mark.read(), afterOwn, 'a commit of another process');
  db.close();
});

test('no mark without a WAL index; a torn header (copies differ) reads as unknown', () => {
  const file = tmpFile();
  const db = new DatabaseSync(file);
  db.exec('create table t (n integer)'); // rollback journal: no -shm
  assert.equal(openCommitMark(file), undefined);
  db.exec('pragma journal_mode = wal; insert into t values (1)');
  const mark = openCommitMark(file)!;
  assert.ok(mark.read());
  // A copy of the file's header with its first copy changed, as a writer leaves it mid-update.
  const copy = tmpFile();
  const header = fs.readFileSync(`${file}-shm`).subarray(0, 136);
  header[16] = header[16]! ^ 0xff; // mxFrame of the first copy only
  fs.writeFileSync(`${copy}-shm`, header);
  assert.equal(openCommitMark(copy)!.read(), undefined);
  db.close();
});
