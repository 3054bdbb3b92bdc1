// `--pg postgres://…`: the same cases against PostgreSQL. The database gets the schema and the
// synthetic catalogue the first time (give the benchmark a scratch database); later runs find
// enough works and start at once.
import pg from 'pg';
import { runShelfmark } from './catalogue.ts';

async function countWorks(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>('SELECT count(*) AS n FROM works');
    return Number(result.rows[0]?.n ?? 0);
  } catch {
    return 0; // no schema yet
  } finally {
    await client.end();
  }
}

export async function preparePostgres(
  root: string,
  url: string,
  works: number,
  say: (m: string) => void,
): Promise<void> {
  const have = await countWorks(url);
  if (have >= works) return say(`  PostgreSQL has ${have.toLocaleString('en')} works already`);
  say(`  adding ${(works - have).toLocaleString('en')} works to PostgreSQL …`);
  const out = await runShelfmark(root, ['demo', '--works', String(works - have), `--database-url=${url}`]);
  say('  ' + out.trim());
}
