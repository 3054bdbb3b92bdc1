// Test helpers: check a representation against its schema (xmllint for XSD, ajv for JSON).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { XML_DECLARATION } from '../../http/representation/markup.ts';
import { readSchema, schemaFile, type SchemaName } from '../schemas/index.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));

/** Returns ajv's errors as text, or '' when the value is valid. */
export function jsonErrors(name: SchemaName, value: unknown): string {
  const validate =
    ajv.getSchema(name) ?? (ajv.addSchema(JSON.parse(readSchema(name, 'json')), name), ajv.getSchema(name));
  if (!validate) throw new Error(`no schema ${name}`);
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}

/** Runs `xmllint --schema`; returns its complaint, or '' when the document is valid. */
export function xmlErrors(name: SchemaName, rootElement: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'shelfmark-xsd-'));
  const file = join(dir, `${name}.xml`);
  writeFileSync(file, XML_DECLARATION + rootElement);
  try {
    execFileSync('xmllint', ['--noout', '--schema', schemaFile(name, 'xsd'), file], { stdio: 'pipe' });
    return '';
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err);
  }
}
