// The catalogue's schemas: one XSD and one JSON Schema per representation, served at
// /schema/{name}.xsd and /schema/{name}.json (named by Representation.schema). Which exist is
// the registry's (ADR 0097): the schemas its URLs name; schemas.test.ts holds the files to them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_NAMES, type SchemaName } from '../registry/index.ts';

export { SCHEMA_NAMES, type SchemaName };

export const SCHEMA_DIR = import.meta.dirname;

export function schemaFile(name: SchemaName, kind: 'xsd' | 'json'): string {
  return join(SCHEMA_DIR, `${name}.${kind}`);
}

export function readSchema(name: SchemaName, kind: 'xsd' | 'json'): string {
  return readFileSync(schemaFile(name, kind), 'utf8');
}
