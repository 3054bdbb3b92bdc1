// Collects the representations a test received and checks them in batches: each XML document
// with xmllint against the XSD its Link rel="describedby" names (fetched from the server; one
// xmllint per schema), each JSON document with Ajv 2020 against its JSON Schema (draft 2020-12,
// the dialect every Shelfmark schema declares), every HTML page with the Nu HTML Checker (one JVM for all pages).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateHtml } from '../support/html.ts';
import { validateJson } from '../support/json.ts';
import { runCommand } from '../support/run-command.ts';
import { linkTarget } from './links.ts';

export type Received = {
  /** Where it came from, for messages: "GET /werke/faust (Accept: application/json)". */
  readonly label: string;
  readonly contentType: string;
  readonly body: string;
  /** The response's Link rel="describedby" target, if any. */
  readonly describedBy: string | undefined;
};

export type FormatOf = 'html' | 'xml' | 'json' | 'other';

/** html, xml (incl. problem+xml) or json (incl. problem+json) by media type. */
export function formatOf(contentType: string | null): FormatOf {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html') return 'html';
  if (type === 'application/xml' || type === 'application/problem+xml') return 'xml';
  if (type === 'application/json' || type === 'application/problem+json') return 'json';
  return 'other';
}

/** What to validate, from a response's Content-Type and Link headers and its body. */
export function received(
  label: string,
  contentType: string | null,
  link: string | null,
  body: string,
): Received {
  return { label, contentType: contentType ?? '', body, describedBy: linkTarget(link, 'describedby') };
}

/** Fetches a schema by its public URL (the test maps it onto the local server). */
export type SchemaFetcher = (url: string) => Promise<string>;

/** Problems with the XML and JSON documents; [] when every one is valid against its schema. */
export async function schemaProblems(
  docs: readonly Received[],
  fetchSchema: SchemaFetcher,
): Promise<string[]> {
  const problems: string[] = [];
  const xmlBySchema = new Map<string, Received[]>();
  const schemaText = new Map<string, Promise<string>>();
  const jsonSchemas = new Map<string, object>();
  const schemaOf = (url: string): Promise<string> => {
    let text = schemaText.get(url);
    if (!text) schemaText.set(url, (text = fetchSchema(url)));
    return text;
  };
  for (const doc of docs) {
    const format = formatOf(doc.contentType);
    if (format !== 'xml' && format !== 'json') continue;
    if (!doc.describedBy) {
      problems.push(`${doc.label}: ${format.toUpperCase()} without Link rel="describedby"`);
      continue;
    }
    if (format === 'xml') {
      const group = xmlBySchema.get(doc.describedBy) ?? [];
      group.push(doc);
      xmlBySchema.set(doc.describedBy, group);
    } else {
      // One parsed object per schema URL: validateJson compiles once per schema object.
      let schema = jsonSchemas.get(doc.describedBy);
      if (!schema)
        jsonSchemas.set(doc.describedBy, (schema = JSON.parse(await schemaOf(doc.describedBy)) as object));
      const result = jsonValidation(schema, JSON.parse(doc.body));
      if (!result.ok) problems.push(`${doc.label}: invalid against ${doc.describedBy}:\n${result.errors}`);
    }
  }
  for (const [schemaUrl, group] of xmlBySchema)
    problems.push(...(await xmlProblems(schemaUrl, await schemaOf(schemaUrl), group)));
  return problems;
}

/** Problems the Nu HTML Checker reports for the HTML documents; [] when all are valid. */
export async function htmlProblems(docs: readonly Received[]): Promise<string[]> {
  const pages = docs
    .filter((d) => formatOf(d.contentType) === 'html')
    .map((d) => ({ name: d.label, html: d.body }));
  const results = await validateHtml(pages);
  return results
    .filter((r) => r.messages.length > 0)
    .map(
      (r) =>
        `${r.name}:\n` +
        r.messages
          .map((m) => `  line ${m.lastLine ?? '?'}: ${m.message} ${JSON.stringify(m.extract ?? '')}`)
          .join('\n'),
    );
}

async function xmlProblems(schemaUrl: string, xsd: string, docs: readonly Received[]): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'shelfmark-acceptance-xml-'));
  try {
    const xsdFile = path.join(dir, 'schema.xsd');
    await writeFile(xsdFile, xsd, 'utf8');
    const files = docs.map((_, i) => path.join(dir, `doc-${i}.xml`));
    await Promise.all(docs.map((doc, i) => writeFile(files[i]!, doc.body, 'utf8')));
    const problems: string[] = [];
    // Several hundred file names stay far below the argument-length limit; chunk anyway.
    for (let start = 0; start < files.length; start += 200) {
      const chunk = files.slice(start, start + 200);
      const result = await runCommand('xmllint', ['--noout', '--nonet', '--schema', xsdFile, ...chunk]);
      if (/failed to compile|WXS schema .* failed/i.test(result.stderr))
        return [`${schemaUrl} does not compile as XML Schema:\n${result.stderr}`];
      chunk.forEach((file, i) => {
        const doc = docs[start + i]!;
        const messages = result.stderr
          .split('\n')
          .filter((line) => line.startsWith(file) && !line.endsWith(' validates'));
        if (messages.length > 0)
          problems.push(
            `${doc.label}: invalid against ${schemaUrl}:\n${messages.join('\n').split(file).join('document')}`,
          );
      });
      if (result.code !== 0 && problems.length === 0)
        problems.push(`xmllint failed (${result.code}) without naming a document:\n${result.stderr}`);
    }
    return problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Validates with test/support/json.ts (Ajv 2020). Every schema Shelfmark serves is draft
 * 2020-12; another dialect is reported as a problem rather than validated by other rules.
 */
function jsonValidation(schema: object, value: unknown): { ok: boolean; errors: string } {
  const dialect = String((schema as { $schema?: unknown }).$schema ?? '');
  if (dialect !== 'https://json-schema.org/draft/2020-12/schema')
    return { ok: false, errors: `unknown JSON Schema dialect "${dialect}" (expected draft 2020-12)` };
  return validateJson(value, schema);
}
