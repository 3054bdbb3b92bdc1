// `shelfmark import` and `shelfmark export` end to end, as child processes, on each engine.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freshSchema, pgTestUrl, skipUnlessPg, type FreshSchema } from '../../test/support/pg.ts';

const CLI = path.join(import.meta.dirname, 'shelfmark.ts');

function run(args: readonly string[], input?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    for (const name of Object.keys(env))
      if (name.startsWith('SHELFMARK_') || name === 'DATABASE_URL') delete env[name];
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, out, err }));
    child.stdin.end(input ?? '');
  });
}

const GOOD_AND_BAD = [
  '{"type":"person","slug":"kafka","vorname":"Franz","nachname":"Kafka","geboren":1883,"gestorben":1924}',
  '{"type":"work","slug":"der-process","titel":"Der Process","jahr":1925,"personen":["kafka","brod"]}',
  '{"type":"work","slug":"das-schloss","titel":"Das Schloss","jahr":1926,"personen":["kafka"]}',
  'kafka,Franz,Kafka',
  '{"type":"account","username":"fk","person":"kafka","rolle":"member"}',
].join('\n');

/** Run after the last test of the file. */
const cleanups: (() => unknown)[] = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

const engines: { name: string; skip: string | false; database: () => Promise<string[]> }[] = [
  {
    name: 'sqlite',
    skip: false,
    database: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-transfer-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      return ['--data-dir', dir, '--log-dir', path.join(dir, 'logs')];
    },
  },
  {
    name: 'postgres',
    skip: skipUnlessPg.skip,
    database: async () => {
      const schema: FreshSchema = await freshSchema(pgTestUrl());
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-transfer-'));
      cleanups.push(() => schema.drop());
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
      return [`--database-url=${schema.url}`, '--data-dir', dir, '--log-dir', path.join(dir, 'logs')];
    },
  },
];

for (const engine of engines) {
  describe(`shelfmark import/export on ${engine.name}`, { skip: engine.skip }, () => {
    let db: string[];
    let dir: string;
    before(async () => {
      db = await engine.database();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-files-'));
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    });

    test('a file with bad lines: the good ones are imported, the bad listed by number; exit 1', async () => {
      const file = path.join(dir, 'catalogue.jsonl');
      fs.writeFileSync(file, GOOD_AND_BAD);
      const first = await run(['import', file, ...db]);
      assert.equal(first.code, 1, first.err);
      assert.equal(
        first.err,
        `${file}:2: personen: no live person brod\n` +
          `${file}:4: not JSON: ${notJson('kafka,Franz,Kafka')}\n`,
      );
      assert.equal(
        first.out,
        'persons: 1 new, 0 changed, 0 unchanged; works: 1 new, 0 changed, 0 unchanged; ' +
          'copies: 0 new, 0 changed, 0 unchanged; accounts: 1 new, 0 changed, 0 unchanged; lines not imported: 2\n',
      );
    });

    test('export, then import of the export: nothing changes; exit 0', async () => {
      const jsonl = path.join(dir, 'export.jsonl');
      const exported = await run(['export', '--output', jsonl, '--accounts', ...db]);
      assert.equal(exported.code, 0, exported.err);
      const text = fs.readFileSync(jsonl, 'utf8');
      assert.equal(text.split('\n').length, 4, text);
      const again = await run(['import', jsonl, ...db]);
      assert.equal(again.code, 0, again.err);
      assert.equal(again.err, '');
      assert.match(again.out, /persons: 0 new, 0 changed, 1 unchanged; works: 0 new, 0 changed, 1 unchanged/);
      // CSV to standard output, and back in from standard input.
      const csv = await run(['export', '--format', 'csv', '--accounts', ...db]);
      assert.equal(csv.code, 0, csv.err);
      assert.match(csv.out, /^type,slug,/);
      assert.match(csv.out, /\r\nwork,das-schloss,,,,,,,Das Schloss,1926,,,kafka,/);
      const fromStdin = await run(['import', '-', '--format', 'csv', ...db], csv.out);
      assert.equal(fromStdin.code, 0, fromStdin.err);
      assert.match(fromStdin.out, /accounts: 0 new, 0 changed, 1 unchanged; lines not imported: 0/);
      const without = await run(['export', ...db]);
      assert.ok(!without.out.includes('"account"'), 'accounts only with --accounts');
    });

    test('MARCXML by its extension, then as standard input: bad records named, the second import changes nothing', async () => {
      const file = path.join(import.meta.dirname, '../catalogue/transfer/fixtures/records.xml');
      const first = await run(['import', file, ...db]);
      assert.equal(first.code, 1, first.err);
      assert.equal(
        first.err,
        `${file}: record 7 (line 121): 245 $a: no title\n` +
          `${file}: record 9 (line 153): 100 $a "Homer": vorname: required text\n` +
          `${file}: record 11 (line 179): 001: no control number, the key of the work\n`,
      );
      assert.match(first.out, /persons: 7 new, 0 changed, 1 unchanged; works: 9 new, 0 changed, 0 unchanged/);
      const again = await run(['import', '-', '--format', 'marcxml', ...db], fs.readFileSync(file, 'utf8'));
      assert.equal(again.code, 1, again.err);
      assert.match(again.out, /persons: 0 new, 0 changed, 8 unchanged; works: 0 new, 0 changed, 9 unchanged/);
      const exported = await run(['export', ...db]);
      assert.match(
        exported.out,
        /"slug":"stiller-roman","externeId":"\(DE-101\)954000022","titel":"Stiller: Roman"/,
      );
    });

    test('a file that cannot be read at all: exit 2, nothing imported', async () => {
      const csv = path.join(dir, 'bad.csv');
      fs.writeFileSync(csv, 'type,name\nperson,x\n');
      const result = await run(['import', csv, ...db]);
      assert.equal(result.code, 2);
      assert.match(result.err, /bad\.csv:line 1: the header must name the column type and only these/);
      const missing = await run(['import', path.join(dir, 'nowhere.jsonl'), ...db]);
      assert.equal(missing.code, 2);
      assert.match(missing.err, /ENOENT/);
    });
  });
}

function notJson(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return '';
}
