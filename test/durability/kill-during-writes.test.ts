// Durability (issue 4): `kill -9` of the server in the middle of a stream of POSTs. Whatever
// the server answered 201 for must survive: after a restart on the same SQLite file every
// Location answers 200 with what was posted, and the file passes `PRAGMA integrity_check`
// both as the crash left it and after a clean stop. Requests cut off by the kill may or may
// not have been stored, but nothing half-written may appear.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, test } from 'node:test';
import { basicAuth, startShelfmark, type Shelfmark } from '../access/server.ts';

/** Writers sending POSTs back to back, so that some are in flight when the server dies. */
const WRITERS = 4;
/** The kill comes right after this many 201s. */
const KILL_AFTER = 40;

type Outcome =
  | { readonly titel: string; readonly status: number; readonly location: string | null }
  | { readonly titel: string; readonly error: string };

function integrityCheck(file: string): { integrity: string[]; works: number } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const integrity = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
    const row = db.prepare("SELECT count(*) AS n FROM works WHERE titel LIKE 'Dauer %'").get() as {
      n: number;
    };
    return { integrity: integrity.map((r) => r.integrity_check), works: Number(row.n) };
  } finally {
    db.close();
  }
}

let first: Shelfmark | undefined;
let second: Shelfmark | undefined;
after(async () => {
  await second?.process.stop();
  await first?.dispose();
});

test('kill -9 during a stream of POSTs: every 201 survives the restart, the file is intact', async (t) => {
  first = await startShelfmark('shelfmark-durability-');
  const server = first;
  const child = server.process.child;
  const exited = new Promise<string | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  const outcomes: Outcome[] = [];
  let sent = 0;
  let created = 0;
  let killed = false;
  let answeredAfterKill = 0;

  async function writer(): Promise<void> {
    while (true) {
      const titel = `Dauer ${++sent}`;
      try {
        const response = await fetch(`${server.base}/werke`, {
          method: 'POST',
          headers: {
            authorization: basicAuth('personal'),
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify({ titel, jahr: 2000 + sent, exemplare: 3 }),
        });
        await response.arrayBuffer();
        outcomes.push({ titel, status: response.status, location: response.headers.get('location') });
        if (response.status === 201 && ++created === KILL_AFTER && !killed) {
          killed = true;
          child.kill('SIGKILL'); // the other writers' requests are on the wire right now
        }
      } catch (error) {
        outcomes.push({ titel, error: String((error as Error).cause ?? error) });
        return; // the server is gone
      }
      if (killed && ++answeredAfterKill > WRITERS * 2) return; // safety net: the kill did not take
    }
  }
  await Promise.all(Array.from({ length: WRITERS }, writer));
  assert.equal(await exited, 'SIGKILL', 'the server died of the kill');

  const answered = outcomes.filter((o): o is Extract<Outcome, { status: number }> => 'status' in o);
  const cutOff = outcomes.filter((o) => 'error' in o);
  assert.deepEqual(
    answered.filter((o) => o.status !== 201).map((o) => `${o.titel}: ${o.status}`),
    [],
    'before the kill every POST was created',
  );
  // Responses already on their way when the kill came may still arrive: at least KILL_AFTER.
  assert.ok(answered.length >= KILL_AFTER, `${answered.length} answers`);
  assert.equal(cutOff.length, WRITERS, 'each writer lost its connection to the killed server');

  // As the crash left it (WAL and all): intact, and holding at least every acknowledged work.
  const crashed = integrityCheck(server.databaseFile);
  assert.deepEqual(crashed.integrity, ['ok']);
  assert.ok(
    crashed.works >= answered.length,
    `${crashed.works} works stored, ${answered.length} acknowledged`,
  );

  second = await server.restart();
  const base = second.base;
  for (const o of answered) {
    assert.ok(o.location, `${o.titel}: Location`);
    const response = await fetch(`${base}${new URL(o.location).pathname}`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(response.status, 200, `${o.titel} at ${o.location} after the restart`);
    const work = (await response.json()) as { titel: string; exemplare: number; verfuegbar: number };
    assert.deepEqual(
      { titel: work.titel, exemplare: work.exemplare, verfuegbar: work.verfuegbar },
      { titel: o.titel, exemplare: 3, verfuegbar: 3 },
    );
  }
  // A cut-off POST is either wholly there or not at all.
  let storedCutOff = 0;
  for (const o of cutOff) {
    const slug = o.titel.toLowerCase().replace(' ', '-');
    const response = await fetch(`${base}/werke/${slug}.json`);
    assert.ok([200, 404].includes(response.status), `${o.titel}: ${response.status}`);
    if (response.status === 200) {
      storedCutOff++;
      assert.equal(((await response.json()) as { titel: string }).titel, o.titel);
    }
  }
  t.diagnostic(
    `${answered.length} acknowledged, ${cutOff.length} cut off by the kill (${storedCutOff} of them stored)`,
  );
  // The restarted server takes writes again.
  const again = await fetch(`${base}/werke`, {
    method: 'POST',
    headers: { authorization: basicAuth('personal'), 'content-type': 'application/json' },
    body: JSON.stringify({ titel: 'Dauer danach', exemplare: 1 }),
  });
  assert.equal(again.status, 201);

  await second.process.stop();
  assert.equal(second.process.child.exitCode, 0, 'a clean stop');
  const stopped = integrityCheck(server.databaseFile);
  assert.deepEqual(stopped.integrity, ['ok']);
  assert.equal(
    stopped.works,
    answered.length + storedCutOff + 1,
    'exactly the works the restarted server showed',
  );
});
