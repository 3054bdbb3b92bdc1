// Public surface of src/logging: Apache-compatible access and error logs and their sinks.
export * from './access/index.ts';
export * from './error/index.ts';
export * from './sink/index.ts';
export { escapeLogItem, escapeErrorItem, utf8Binary } from './escape.ts';
