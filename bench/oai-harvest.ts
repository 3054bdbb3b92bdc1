// A full OAI-PMH harvest of an existing catalogue, for the provider's memory (ADR 0081):
// `shelfmark serve --workers 0` over the catalogue as a child process, then ListRecords page
// after page, following the resumption tokens as a harvester does, while the server's RSS is
// read from /proc after every page. Prints records, pages, time, and the server's RSS before,
// at most during (VmHWM) and after.
//   node bench/oai-harvest.ts --data-dir DIR [--database-url postgres://…] [--prefix marc21]
// Build a big catalogue first: `shelfmark demo --works 1000000` with the same data dir or URL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startChildServer } from './server.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    prefix: { type: 'string', default: 'marc21' },
  },
});
if (!values['data-dir']) throw new Error('--data-dir DIR is needed (the catalogue to harvest)');

/**
 * VmRSS and VmHWM of a process, and RssAnon — the process's own memory (heap, SQLite's page
 * cache) without RssFile, the database file's pages SQLite maps (mmap_size, ADR 0047), which
 * count into RSS but are the kernel's page cache — in MiB.
 */
function memory(pid: number): { rss: number; peak: number; anon: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024, anon: kib('RssAnon') / 1024 };
}

const root = path.resolve(import.meta.dirname, '..');
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-oai-bench-'));
const server = await startChildServer({
  root,
  dataDir: path.resolve(values['data-dir']),
  logDir,
  accessLog: 'off',
  databaseUrl: values['database-url'],
});
try {
  const oai = `${server.origin}/oai`;
  const before = memory(server.pid);
  const started = performance.now();
  let records = 0;
  let deleted = 0;
  let pages = 0;
  let bytes = 0;
  let maxRss = before.rss;
  let maxAnon = before.anon;
  let query = `verb=ListRecords&metadataPrefix=${values.prefix}`;
  for (;;) {
    const response = await fetch(`${oai}?${query}`);
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${response.status}: ${body.slice(0, 500)}`);
    const error = /<error code="([^"]+)"/.exec(body);
    if (error) throw new Error(`OAI error ${error[1]} on page ${pages + 1}`);
    pages += 1;
    bytes += Buffer.byteLength(body);
    records += body.split('<record>').length - 1;
    deleted += body.split('<header status="deleted">').length - 1;
    const now = memory(server.pid);
    maxRss = Math.max(maxRss, now.rss);
    maxAnon = Math.max(maxAnon, now.anon);
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(body)?.[1];
    if (!token) break;
    query = `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`;
    if (pages % 1000 === 0)
      console.error(
        `${records} records, ${pages} pages, server RSS ${memory(server.pid).rss.toFixed(0)} MiB`,
      );
  }
  const seconds = (performance.now() - started) / 1000;
  const after = memory(server.pid);
  console.log(
    [
      `records      ${records} (${deleted} deleted) in ${pages} pages, ${(bytes / 2 ** 20).toFixed(0)} MiB of XML`,
      `time         ${seconds.toFixed(0)} s (${(records / seconds).toFixed(0)} records/s)`,
      `server RSS   before ${before.rss.toFixed(0)} MiB, highest sampled ${maxRss.toFixed(0)} MiB, after ${after.rss.toFixed(0)} MiB, peak (VmHWM) ${after.peak.toFixed(0)} MiB`,
      `of which anonymous (RssAnon, without the mapped database file): before ${before.anon.toFixed(0)} MiB, highest sampled ${maxAnon.toFixed(0)} MiB, after ${after.anon.toFixed(0)} MiB`,
    ].join('\n'),
  );
} finally {
  await server.stop();
  fs.rmSync(logDir, { recursive: true, force: true });
}
