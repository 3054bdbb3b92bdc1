// CSV (RFC 4180): one file for every type, a header row naming the columns (`type` and the
// fields of the types, FIELDS), one record per row; a cell of a field its type lacks stays
// empty. An empty cell is null (or absent); `personen` holds slugs separated by `|` (slugs have
// none); whole numbers are written as digits. A quoted cell may span lines: a bad record is
// named by the line it starts on. A text cell that a spreadsheet would take for a formula is
// written after a `'`, which the import takes off again (neutralizeFormula, ADR 0078).
import type { Readable } from 'node:stream';
import type { ImportItem } from './import.ts';
import { readTextRecords, type ReadOptions } from './lines.ts';
import { UnreadableFileError } from './unreadable.ts';
import { checkRecord, FIELDS, type TransferRecord } from './records.ts';

export const CSV_COLUMNS: readonly string[] = ['type', ...new Set(Object.values(FIELDS).flat())];
const NUMBERS = new Set(['geboren', 'gestorben', 'jahr', 'exemplare', 'nummer']);

/** The cells of one record's text (its lines joined by \n), or null when a quote is unbalanced. */
export function splitCsv(text: string): string[] | null {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let cell = '';
      i += 1;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) return null;
        cell += text.slice(i, q);
        if (text[q + 1] === '"') {
          cell += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      cells.push(cell);
      if (i === text.length) return cells;
      if (text[i] !== ',') return null;
      i += 1;
    } else {
      const comma = text.indexOf(',', i);
      const end = comma < 0 ? text.length : comma;
      const cell = text.slice(i, end);
      if (cell.includes('"')) return null;
      cells.push(cell);
      if (comma < 0) return cells;
      i = comma + 1;
    }
  }
}

function quoteCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) n += 1;
  return n;
}

/** The object a row stands for: empty cells left out, numbers as numbers, personen as a list. */
function rowObject(header: readonly string[], cells: readonly string[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  header.forEach((name, k) => {
    const cell = restoreFormula(cells[k] ?? '');
    if (cell === '') return;
    if (name === 'personen') o[name] = cell.split('|');
    else if (NUMBERS.has(name) && /^-?\d{1,16}$/.test(cell)) o[name] = Number(cell);
    else o[name] = cell;
  });
  return o;
}

export class CsvHeaderError extends UnreadableFileError {}

/** Rows of a CSV file as records; throws CsvHeaderError when the first row is no valid header. */
export async function* readCsv(input: Readable, options: ReadOptions = {}): AsyncGenerator<ImportItem> {
  let header: string[] | null = null;
  for await (const row of readTextRecords(input, { ...options, quoted: true })) {
    if ('reason' in row) {
      if (header === null)
        throw new CsvHeaderError(`line ${row.line}: the header row cannot be read: ${row.reason}`);
      yield row;
      continue;
    }
    const { line: start, text: record } = row;
    if (record.trim() === '') continue;
    // An odd number of quotes: the last quoted cell runs to the end of the file.
    if (quoteCount(record) % 2 === 1) {
      yield { line: start, reason: 'not CSV: a quoted cell is not closed' };
      continue;
    }
    const cells = splitCsv(record);
    if (header === null) {
      header = cells ?? [];
      const unknown = header.filter((h) => !CSV_COLUMNS.includes(h));
      if (!header.includes('type') || unknown.length > 0 || new Set(header).size !== header.length)
        throw new CsvHeaderError(
          `line ${start}: the header must name the column type and only these: ${CSV_COLUMNS.join(',')}` +
            (unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''),
        );
      continue;
    }
    if (cells === null) {
      yield { line: start, reason: 'not CSV: a quote out of place' };
      continue;
    }
    if (cells.length !== header.length) {
      yield { line: start, reason: `${cells.length} cells, the header has ${header.length}` };
      continue;
    }
    const checked = checkRecord(rowObject(header, cells));
    yield 'reason' in checked ? { line: start, reason: checked.reason } : { line: start, record: checked };
  }
}

/**
 * What makes a spreadsheet take a cell for a formula (OWASP, CSV injection): a cell whose text
 * starts with one of these is exported after a `'`, which spreadsheets show as text and do not
 * display. The escape is undone on import, and is unambiguous: a cell starting with `'` and then
 * one of these or another `'` has had one `'` put before it (so a value starting with `''` or
 * `'=` is written with one more), any other cell is the value as it is (`'Tis` stays `'Tis`).
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

const isEscaped = (s: string) => s[0] === "'" && (FORMULA_START.has(s[1] ?? '') || s[1] === "'");

/** A text cell as exported: `'` before a formula start, and before a text that looks escaped. */
export function neutralizeFormula(s: string): string {
  return FORMULA_START.has(s[0] ?? '') || isEscaped(s) ? `'${s}` : s;
}

/** A cell as imported: the export's `'` taken off again. */
export function restoreFormula(s: string): string {
  return isEscaped(s) ? s.slice(1) : s;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Numbers are digits (a year may start with `-`): no formula, and no `'` before them.
  const s =
    typeof value === 'number'
      ? String(value)
      : neutralizeFormula(Array.isArray(value) ? value.join('|') : String(value));
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replaceAll('"', '""')}"` : s;
}

export function csvHeader(): string {
  return CSV_COLUMNS.join(',') + '\r\n';
}

export function csvRow(record: TransferRecord): string {
  const values = record as unknown as Record<string, unknown>;
  return CSV_COLUMNS.map((name) => cell(name === 'type' ? record.type : values[name])).join(',') + '\r\n';
}
