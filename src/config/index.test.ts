import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { acceptedOrigins, configWarnings, loadConfig, OPTIONS, parseFlags } from './index.ts';

test('defaults give a local SQLite server on port 3000', () => {
  const r = loadConfig({});
  assert.ok(r.ok);
  assert.equal(r.config.port, 3000);
  assert.equal(r.config.baseUrl, 'http://localhost:3000');
  assert.equal(r.config.databaseUrl, path.resolve('data/shelfmark.db'));
  assert.equal(r.config.accessLog, path.resolve('logs/access.log'));
  assert.equal(r.config.logLevel, 'warn');
  assert.equal(r.config.displayErrors, false);
});

test('every problem is listed at once', () => {
  const r = loadConfig({ PORT: 'eighty', SHELFMARK_BASE_URL: 'ftp://x', SHELFMARK_LOG_LEVEL: 'loud' });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.errors.length, 3);
  assert.match(r.errors.join('\n'), /PORT.*whole number/);
  assert.match(r.errors.join('\n'), /SHELFMARK_BASE_URL.*http or https/);
  assert.match(r.errors.join('\n'), /SHELFMARK_LOG_LEVEL.*one of/);
});

test('flags win over the environment; base URL keeps its path prefix without a trailing slash', () => {
  const { flags } = parseFlags(['--port', '8080', '--base-url=https://example.org/katalog/', '--no-demo']);
  const r = loadConfig({ PORT: '9000' }, flags);
  assert.ok(r.ok);
  assert.equal(r.config.port, 8080);
  assert.equal(r.config.baseUrl, 'https://example.org/katalog');
  assert.equal(r.config.demo, false);
});

test('unknown flags and bad proxy lists are rejected', () => {
  const r = loadConfig({ SHELFMARK_TRUST_PROXY: '10.0.0.1, evil host' }, { colour: 'blue' });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.errors.join('\n'), /not an address.*evil host/);
  assert.match(r.errors.join('\n'), /unknown option --colour/);
});

test('CORS origins: exact origins only, nothing after the port', () => {
  const r = loadConfig({ SHELFMARK_CORS_ORIGINS: 'https://app.example, http://localhost:5173' });
  assert.ok(r.ok);
  assert.deepEqual(r.config.corsOrigins, ['https://app.example', 'http://localhost:5173']);
  const none = loadConfig({});
  assert.ok(none.ok);
  assert.deepEqual(none.config.corsOrigins, []);
  for (const bad of [
    'https://app.example/',
    'app.example',
    '*',
    'https://app.example/x',
    'ftp://app.example',
  ]) {
    const refused = loadConfig({ SHELFMARK_CORS_ORIGINS: bad });
    assert.equal(refused.ok, false, bad);
    if (!refused.ok) assert.match(refused.errors.join('\n'), /SHELFMARK_CORS_ORIGINS.*not an origin/, bad);
  }
});

test('a secret must be long enough', () => {
  const r = loadConfig({ SHELFMARK_SECRET: 'short' });
  assert.equal(r.ok, false);
});

test('a loopback base URL accepts its loopback aliases as origins; a public one only itself', () => {
  assert.deepEqual(acceptedOrigins('http://localhost:3000'), [
    'http://localhost:3000',
    'http://127.0.0.1:3000',
    'http://[::1]:3000',
  ]);
  assert.deepEqual(acceptedOrigins('https://library.example/katalog'), ['https://library.example']);
});

test('one row per option: the table alone decides which options exist and their defaults', () => {
  const r = loadConfig({});
  assert.ok(r.ok);
  assert.deepEqual(Object.keys(r.config).sort(), Object.keys(OPTIONS).sort());
  for (const [key, spec] of Object.entries(OPTIONS)) {
    if (!('fallback' in spec)) continue;
    const parsed = spec.parse(spec.fallback);
    assert.ok(parsed.ok, `${key}'s default parses`);
    assert.deepEqual(r.config[key as keyof typeof r.config], parsed.value, key);
  }
  assert.equal(r.config.secret, undefined);
  assert.equal(r.config.errorLog, path.resolve('logs/error.log'));
});

test('displayErrors with a base URL off this machine is a warning at start; on localhost it is not', () => {
  const warningsFor = (flags: Record<string, string>) => {
    const r = loadConfig({}, flags);
    assert.ok(r.ok);
    return configWarnings(r.config);
  };
  assert.equal(
    warningsFor({ 'display-errors': '1', 'base-url': 'https://library.example/katalog' }).length,
    1,
  );
  assert.deepEqual(warningsFor({ 'display-errors': '1', 'base-url': 'http://127.0.0.1:3000' }), []);
  assert.deepEqual(warningsFor({ 'display-errors': '1' }), []);
  assert.deepEqual(warningsFor({ 'base-url': 'https://library.example' }), []);
});
