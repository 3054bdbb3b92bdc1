import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config/index.ts';
import { ACCESS_LOG_OFF, openLogs } from './main.ts';

function configWith(accessLog: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-main-'));
  const loaded = loadConfig({}, { 'log-dir': dir, 'access-log': accessLog });
  assert.ok(loaded.ok);
  return { dir, config: loaded.config };
}

test('SHELFMARK_ACCESS_LOG=off: no access log, no file, only the error log', async () => {
  const { dir, config } = configWith(ACCESS_LOG_OFF);
  const logs = openLogs(config);
  assert.equal(logs.accessLog, undefined);
  assert.equal(logs.accessSink, undefined);
  await logs.errorSink.close();
  assert.deepEqual(fs.readdirSync(dir), ['error.log']);
  assert.equal(fs.existsSync(path.resolve(ACCESS_LOG_OFF)), false);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('any other SHELFMARK_ACCESS_LOG is a path that gets a sink', async () => {
  const { dir, config } = configWith('');
  const logs = openLogs({ ...config, accessLog: path.join(dir, 'access.log') });
  assert.ok(logs.accessLog && logs.accessSink);
  await Promise.all([logs.accessSink.close(), logs.errorSink.close()]);
  assert.ok(fs.existsSync(path.join(dir, 'access.log')));
  fs.rmSync(dir, { recursive: true, force: true });
});
