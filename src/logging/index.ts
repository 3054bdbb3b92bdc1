// Public surface of src/logging: Apache-compatible access and error logs, their sinks, and
// mod_status's counters and report (status/).
export * from './access/index.ts';
export * from './error/index.ts';
export * from './sink/index.ts';
export { escapeLogItem, escapeErrorItem, utf8Binary } from './escape.ts';
export * from './status/index.ts';
