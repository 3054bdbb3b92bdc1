// Test helpers: check a representation against the catalogue's schema of that name, through
// the shared validators in test/support (xmllint --nonet for XSD, Ajv 2020 for JSON Schema).
import { XML_DECLARATION } from '../../../src/http/representation/markup.ts';
import { validateJson } from '../../support/json.ts';
import { validateXml } from '../../support/xml.ts';
import { readSchema, schemaFile, type SchemaName } from '../../../src/catalogue/schemas/index.ts';

// validateJson keeps one compiled validator per schema object: parse each schema only once.
const parsed = new Map<SchemaName, object>();

function jsonSchema(name: SchemaName): object {
  let schema = parsed.get(name);
  if (!schema) {
    schema = JSON.parse(readSchema(name, 'json')) as object;
    parsed.set(name, schema);
  }
  return schema;
}

/** Returns Ajv's errors as text, or '' when the value is valid. */
export function jsonErrors(name: SchemaName, value: unknown): string {
  const result = validateJson(value, jsonSchema(name));
  return result.ok ? '' : result.errors;
}

/** Validates `rootElement` (without XML declaration) with xmllint; its complaint, or '' when valid. */
export async function xmlErrors(name: SchemaName, rootElement: string): Promise<string> {
  const result = await validateXml(XML_DECLARATION + rootElement, schemaFile(name, 'xsd'));
  return result.ok ? '' : result.errors || 'invalid (xmllint gave no message)';
}
