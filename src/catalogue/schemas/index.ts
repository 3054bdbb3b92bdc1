// The catalogue's schemas: one XSD and one JSON Schema per representation, served at
// /schema/{name}.xsd and /schema/{name}.json (named by Representation.schema).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SCHEMA_NAMES = [
  'home',
  'person',
  'life-dates',
  'persons',
  'work',
  'works',
  'loans',
  'loan',
  'due-loans',
  'check-in',
  'copy',
  'copies',
  'holds',
  'hold',
  'hold-queue',
  'session',
  'account',
  'password',
  'settings',
  'password-reset-request',
  'password-reset',
  'item-types',
  'item-type',
  'closed-days',
  'closed-day',
  'error-log',
  'server-status',
  'desk',
  'patrons',
  'hold-shelf',
  'overdue-loans',
  'notices',
] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export const SCHEMA_DIR = import.meta.dirname;

export function schemaFile(name: SchemaName, kind: 'xsd' | 'json'): string {
  return join(SCHEMA_DIR, `${name}.${kind}`);
}

export function readSchema(name: SchemaName, kind: 'xsd' | 'json'): string {
  return readFileSync(schemaFile(name, kind), 'utf8');
}
