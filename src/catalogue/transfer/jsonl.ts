// JSON Lines: one record per line, `{"type":"person","slug":…}`; blank lines are skipped. Lines
// are read from the bytes (lines.ts): bad UTF-8 and over-long lines are refused by number.
// Written with every field of its type, in FIELDS order, so an export is byte for byte the same
// for the same catalogue.
import type { Readable } from 'node:stream';
import type { ImportItem } from './import.ts';
import { readTextRecords, type ReadOptions } from './lines.ts';
import { checkRecord, FIELDS, type TransferRecord } from './records.ts';

export async function* readJsonLines(input: Readable, options: ReadOptions = {}): AsyncGenerator<ImportItem> {
  for await (const line of readTextRecords(input, options)) {
    if ('reason' in line) {
      yield line;
      continue;
    }
    const { line: n, text } = line;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line: n, reason: `not JSON: ${(error as Error).message}` };
      continue;
    }
    const checked = checkRecord(value);
    yield 'reason' in checked ? { line: n, reason: checked.reason } : { line: n, record: checked };
  }
}

export function jsonLine(record: TransferRecord): string {
  const out: Record<string, unknown> = { type: record.type };
  for (const field of FIELDS[record.type]) out[field] = (record as unknown as Record<string, unknown>)[field];
  return JSON.stringify(out) + '\n';
}
