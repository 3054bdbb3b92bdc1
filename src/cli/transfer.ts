// `shelfmark import FILE` and `shelfmark export` (docs/decisions/0064-import-and-export.md).
// Import: JSON Lines, CSV or MARCXML (by the file's extension, or --format), `-` for standard
// input; a line or record above --max-record-bytes is refused (ADR 0078); each line not imported is reported on stderr as FILE:LINE: reason (MARCXML: FILE: record
// N (line L): reason); a summary on stdout; exit 0 when
// every line was imported, 1 when some were not, 2 when the file cannot be read at all.
// Export: to standard output or --output FILE, --accounts to include accounts (no passwords).
import fs from 'node:fs';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { sql } from 'kysely';
import type { Config } from '../config/index.ts';
import { openCatalogueDatabase, prepareDatabase } from '../main.ts';
import { optimizeFullText } from '../storage/index.ts';
import {
  csvHeader,
  csvRow,
  DEFAULT_MAX_RECORD_BYTES,
  exportRecords,
  importRecords,
  jsonLine,
  readCsv,
  readJsonLines,
  readMarcXml,
  MAX_RECORD_BYTES_LIMIT,
  UnreadableFileError,
  type ImportSummary,
} from '../catalogue/transfer/index.ts';
import { progressBar } from './progress.ts';

type Flags = Record<string, string | boolean>;
type Format = 'jsonl' | 'csv' | 'marcxml';

/** New rows from which an import also optimizes the full-text index and the planner statistics. */
const BULK = 10_000;

function formatOf(flags: Flags, file: string): Format | null {
  const f = flags.format;
  if (f === undefined) return /\.csv$/i.test(file) ? 'csv' : /\.xml$/i.test(file) ? 'marcxml' : 'jsonl';
  return f === 'jsonl' || f === 'csv' || f === 'marcxml' ? f : null;
}

/** The limit on one line or record (ADR 0078), or null when the flag says no whole number in range. */
function maxRecordBytesOf(flags: Flags): number | null {
  const given = flags['max-record-bytes'];
  if (given === undefined) return DEFAULT_MAX_RECORD_BYTES;
  const n = typeof given === 'string' && /^\d{1,9}$/.test(given) ? Number(given) : NaN;
  return n >= 1024 && n <= MAX_RECORD_BYTES_LIMIT ? n : null;
}

export function summaryText(s: ImportSummary): string {
  const kinds = [
    ['persons', s.counts.person],
    ['works', s.counts.work],
    ['copies', s.counts.copy],
    ['accounts', s.counts.account],
  ] as const;
  return (
    kinds
      .map(([name, c]) => `${name}: ${c.new} new, ${c.changed} changed, ${c.unchanged} unchanged`)
      .join('; ') + `; lines not imported: ${s.bad}\n`
  );
}

export async function importCommand(
  config: Config,
  flags: Flags,
  positional: readonly string[],
): Promise<number> {
  const file = positional[1];
  const format = file === undefined ? null : formatOf(flags, file);
  const maxRecordBytes = maxRecordBytesOf(flags);
  if (file === undefined || format === null || maxRecordBytes === null || positional.length > 2) {
    process.stderr.write(
      'usage: shelfmark import FILE|- [--format jsonl|csv|marcxml] [--max-record-bytes ' +
        `1024…${MAX_RECORD_BYTES_LIMIT}, default ${DEFAULT_MAX_RECORD_BYTES}]\n`,
    );
    return 2;
  }
  let input: Readable;
  let size = 0;
  if (file === '-') input = process.stdin;
  else {
    try {
      size = fs.statSync(file).size;
    } catch (error) {
      process.stderr.write(`shelfmark import: ${(error as Error).message}\n`);
      return 2;
    }
    input = fs.createReadStream(file);
  }
  await prepareDatabase({ ...config, demo: false });
  const database = await openCatalogueDatabase(config);
  const progress = progressBar(
    process.stderr,
    () => (file === '-' ? 0 : (input as fs.ReadStream).bytesRead),
    size,
  );
  try {
    const read = { maxRecordBytes };
    const items =
      format === 'csv'
        ? readCsv(input, read)
        : format === 'marcxml'
          ? readMarcXml(input, read)
          : readJsonLines(input, read);
    const summary = await importRecords(database.db, items, {
      onBad: (line, reason, at) => progress.say(`${file}:${at === undefined ? line : ` ${at}`}: ${reason}\n`),
      onBatch: (line) => progress.update(line),
    });
    progress.done();
    const added = summary.counts.person.new + summary.counts.work.new;
    if (added >= BULK) {
      await optimizeFullText(database.db, database.capabilities, ['persons_fts', 'works_fts']);
      await sql`analyze`.execute(database.db);
    }
    process.stdout.write(summaryText(summary));
    return summary.bad > 0 ? 1 : 0;
  } catch (error) {
    progress.done();
    if (error instanceof UnreadableFileError) {
      process.stderr.write(`${file}:${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    input.destroy();
    await database.close();
  }
}

/** Writes with backpressure: waits for 'drain' whenever the stream's buffer is full. */
async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

export async function exportCommand(
  config: Config,
  flags: Flags,
  positional: readonly string[],
): Promise<number> {
  const format = flags.format === undefined ? 'jsonl' : flags.format;
  const output = flags.output;
  if ((format !== 'jsonl' && format !== 'csv') || output === true || positional.length > 1) {
    process.stderr.write('usage: shelfmark export [--format jsonl|csv] [--output FILE] [--accounts]\n');
    return 2;
  }
  const accounts = flags.accounts !== undefined && flags.accounts !== false && flags.accounts !== 'false';
  await prepareDatabase({ ...config, demo: false });
  const database = await openCatalogueDatabase(config);
  const out: Writable = typeof output === 'string' ? fs.createWriteStream(output) : process.stdout;
  try {
    if (format === 'csv') await write(out, csvHeader());
    for await (const record of exportRecords(database.db, { accounts }))
      await write(out, format === 'csv' ? csvRow(record) : jsonLine(record));
  } finally {
    await database.close();
  }
  if (out !== process.stdout) {
    out.end();
    await once(out, 'finish');
  }
  return 0;
}
