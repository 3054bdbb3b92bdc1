// Test support (not used in production): a separate process that borrows one work for several
// persons against a shared SQLite file, so the store test can race real writers of different
// processes (one process's SQLite connection would serialise its calls anyway).
// Protocol over IPC: the child opens the database, sends 'ready', waits for 'go', borrows all at
// once and sends back the outcomes' reasons ('ok' for a loan), then exits.
import { openDatabase } from '../../../src/storage/index.ts';
import type { DB } from '../../../src/catalogue/tables.ts';
import { createLoanStore } from '../../../src/catalogue/loans/store.ts';

interface Job {
  readonly path: string;
  readonly workId: number;
  readonly personIds: readonly number[];
}

async function run(job: Job): Promise<string[]> {
  // A generous busy timeout: 50 writers of several processes queue for the one write lock.
  const database = await openDatabase<DB>(job.path, { busyTimeoutMs: 30_000 });
  try {
    const store = createLoanStore(database.db, { capabilities: database.capabilities });
    process.send?.('ready');
    await new Promise<void>((resolve) => process.once('message', () => resolve()));
    const outcomes = await Promise.all(
      job.personIds.map((id) =>
        store.borrow(id, { id: job.workId }).then(
          (o) => (o.ok ? 'ok' : o.reason),
          (e: unknown) => `error: ${(e as Error).name}: ${(e as Error).message}`,
        ),
      ),
    );
    return outcomes;
  } finally {
    await database.close();
  }
}

if (import.meta.main) {
  const job = JSON.parse(process.argv[2] ?? '{}') as Job;
  const outcomes = await run(job);
  process.send?.({ outcomes }, () => process.disconnect());
}
