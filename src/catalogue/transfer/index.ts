// Import and export of the catalogue as JSON Lines or CSV (docs/decisions/0064-import-and-export.md).
export { importRecords, DEFAULT_BATCH, type ImportItem, type ImportSummary, type Counts } from './import.ts';
export { exportRecords } from './export.ts';
export { readJsonLines, jsonLine } from './jsonl.ts';
export { readMarcXml } from './marcxml.ts';
export { readCsv, csvHeader, csvRow, CsvHeaderError, CSV_COLUMNS } from './csv.ts';
export { DEFAULT_MAX_RECORD_BYTES, MAX_RECORD_BYTES_LIMIT, type ReadOptions } from './lines.ts';
export { UnreadableFileError } from './unreadable.ts';
export { checkRecord, FIELDS, type TransferRecord, type RecordType } from './records.ts';
export { NO_PASSWORD } from './write-accounts.ts';
export { splitCsv } from './csv.ts';
export type { PersonRecord, WorkRecord } from './records.ts';
