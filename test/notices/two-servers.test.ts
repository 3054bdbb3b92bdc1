// Acceptance (issue 20): two `shelfmark serve` processes on one database — a SQLite file, and a
// PostgreSQL schema — each run the notice job on their own one-second timer while 30 notices
// are due; then two `shelfmark notices` commands run at the same moment on 30 more. Every notice
// arrives at the real SMTP server (smtp-server on 127.0.0.1) exactly once. The servers are
// stopped (which waits for a run in progress) before the count, so a late duplicate would be
// counted.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/storage/index.ts';
import type { DB } from '../../src/catalogue/tables.ts';
import { createStores } from '../../src/catalogue/stores.ts';
import { freshSchema, pgTestUrl, skipUnlessPg } from '../support/pg.ts';
import { startTestSmtp, type TestSmtp } from '../kit/mail/smtp.ts';
import { ROOT, serveShelfmark, type ServedShelfmark } from '../kit/serve.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `shelfmark <args>` to its end: exit code and output. */
async function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['src/cli/shelfmark.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, output };
}

/** 30 overdue loans of 10 patrons with addresses, written straight into the database. */
async function seedOverdue(databaseUrl: string, round: string): Promise<void> {
  const database = await openDatabase<DB>(databaseUrl);
  try {
    const stores = createStores(database.db, { capabilities: database.capabilities });
    const now = Date.now();
    for (let p = 0; p < 10; p++) {
      const person = await stores.persons.create({ vorname: 'Leser', nachname: `${round} ${p}` });
      await database.db
        .insertInto('accounts')
        .values({
          person_id: person.id,
          username: `leser-${round}-${p}`,
          password_hash: '!',
          role: 'member',
          created_at: new Date(now).toISOString(),
          email: `leser-${round}-${p}@example.org`,
          language: p % 2 ? 'en' : 'de',
        })
        .execute();
      for (let l = 0; l < 3; l++) {
        const work = await stores.works.create({ titel: `Werk ${round} ${p} ${l}`, exemplare: 1 });
        const copy = await database.db
          .selectFrom('copies')
          .select('id')
          .where('work_id', '=', work.id)
          .executeTakeFirstOrThrow();
        await database.db
          .insertInto('loans')
          .values({
            person_id: person.id,
            work_id: work.id,
            copy_id: copy.id,
            borrowed_at: new Date(now - 40 * DAY_MS).toISOString(),
            due_at: new Date(now - 5 * DAY_MS).toISOString(),
            returned_at: null,
          })
          .execute();
      }
    }
  } finally {
    await database.close();
  }
}

const targets = [
  { dialect: 'sqlite', skip: false as const },
  { dialect: 'postgres', skip: pgTestUrl() ? (false as const) : skipUnlessPg.skip },
];

for (const target of targets) {
  describe(`notices from two processes on one ${target.dialect} database`, { skip: target.skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'shelfmark-notices-'));
    let databaseUrl = join(dir, 'shelfmark.db');
    let dropSchema: (() => Promise<void>) | undefined;
    let smtp: TestSmtp;
    let env: Record<string, string>;

    before(async () => {
      if (target.dialect === 'postgres') {
        const schema = await freshSchema();
        databaseUrl = schema.url;
        dropSchema = schema.drop;
      }
      smtp = await startTestSmtp();
      env = {
        DATABASE_URL: databaseUrl,
        SHELFMARK_DATA_DIR: join(dir, 'data'),
        SHELFMARK_LOG_DIR: join(dir, 'logs'),
        SHELFMARK_SMTP_HOST: '127.0.0.1',
        SHELFMARK_SMTP_PORT: String(smtp.port),
        SHELFMARK_SMTP_FROM: 'Bibliothek <bibliothek@example.org>',
      };
      const migrated = await cli(['migrate'], env);
      assert.equal(migrated.code, 0, migrated.output);
    });
    after(async () => {
      await smtp?.stop();
      await dropSchema?.();
      rmSync(dir, { recursive: true, force: true });
    });

    test('two servers with notice timers send each due notice once', async () => {
      await seedOverdue(databaseUrl, 'a');
      const servers: ServedShelfmark[] = [];
      try {
        for (let i = 0; i < 2; i++)
          servers.push(
            await serveShelfmark({
              databaseUrl,
              dir: join(dir, `server-${i}`),
              env: { ...env, SHELFMARK_DEMO: '0', SHELFMARK_NOTICE_INTERVAL: '1' },
            }),
          );
        await smtp.arrived(30);
      } finally {
        for (const s of servers) await s.stop();
      }
      assert.equal(smtp.received.length, 30);
      assert.equal(new Set(smtp.received.map((m) => m.messageId)).size, 30);
      assert.equal(new Set(smtp.received.map((m) => m.to)).size, 10);
    });

    test('two `shelfmark notices` at the same moment send each due notice once', async () => {
      await seedOverdue(databaseUrl, 'b');
      const before = smtp.received.length;
      const runs = await Promise.all([cli(['notices'], env), cli(['notices'], env)]);
      for (const run of runs) assert.equal(run.code, 0, run.output);
      const sent = runs.map((r) => Number(/sent (\d+)/.exec(r.output)?.[1]));
      assert.equal(sent[0]! + sent[1]!, 30, runs.map((r) => r.output).join(''));
      await smtp.arrived(before + 30);
      const mine = smtp.received.slice(before);
      assert.equal(mine.length, 30);
      assert.equal(new Set(mine.map((m) => m.messageId)).size, 30);
      // Nothing is left to send: a third run finds nothing.
      const third = await cli(['notices'], env);
      assert.match(third.output, /planned 0, sent 0,/);
    });
  });
}
