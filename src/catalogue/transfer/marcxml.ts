// MARCXML (MARC 21 records in XML) read as a stream with a SAX parser (saxes): one record is held
// at a time, whatever the file's size. Each <record> becomes its control fields and data fields
// (tag, indicators, subfields in order), mapped to import items by marc-map.ts. Elements are
// matched by local name, so a `marc:` prefix or none both work. A file that is not well-formed
// XML cannot be read on past the fault: it is reported once, with its line, and reading stops.
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import type { ImportItem } from './import.ts';
import { marcItems, type MarcRecord } from './marc-map.ts';

const local = (name: string) => name.slice(name.indexOf(':') + 1);

export async function* readMarcXml(input: Readable): AsyncGenerator<ImportItem> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const ready: MarcRecord[] = [];
  let record: MarcRecord | null = null;
  let field: { tag: string; ind1: string; ind2: string; subfields: [string, string][] } | null = null;
  let code: string | null = null;
  let control: string | null = null;
  let text = '';
  let count = 0;
  let fault: string | null = null;
  let faultLine = 0;
  parser.on('opentag', (tag) => {
    if (fault !== null) return;
    const name = local(tag.name);
    const attr = (a: string) => String(tag.attributes[a] ?? '');
    text = '';
    if (name === 'record') {
      count += 1;
      record = { number: count, line: parser.line, control: new Map(), fields: [] };
    } else if (record === null) return;
    else if (name === 'controlfield') control = attr('tag');
    else if (name === 'datafield')
      field = { tag: attr('tag'), ind1: attr('ind1'), ind2: attr('ind2'), subfields: [] };
    else if (name === 'subfield') code = attr('code');
  });
  parser.on('text', (t) => (text += t));
  parser.on('closetag', (tag) => {
    const name = local(tag.name);
    if (record === null || fault !== null) return;
    if (name === 'controlfield' && control !== null) {
      if (!record.control.has(control)) record.control.set(control, text.trim());
      control = null;
    } else if (name === 'subfield' && field !== null && code !== null) {
      field.subfields.push([code, text.replace(/\s+/g, ' ').trim()]);
      code = null;
    } else if (name === 'datafield' && field !== null) {
      record.fields.push(field);
      field = null;
    } else if (name === 'record') {
      ready.push(record);
      record = null;
    }
  });
  // saxes goes on after an error; what follows a fault is not trusted (the record it is in is dropped).
  parser.on('error', (error) => {
    if (fault !== null) return;
    const where = /^(\d+):\d+: /.exec(error.message);
    faultLine = where ? Number(where[1]) : parser.line;
    fault = where ? error.message.slice(where[0].length) : error.message;
  });
  let ordinal = 0;
  const drain = function* (): Generator<ImportItem> {
    for (const r of ready.splice(0)) for (const item of marcItems(r, () => (ordinal += 1))) yield item;
  };
  input.setEncoding('utf8');
  for await (const chunk of input as AsyncIterable<string>) {
    parser.write(chunk);
    yield* drain();
    if (fault !== null) break;
  }
  if (fault === null) parser.close();
  yield* drain();
  if (fault !== null) yield { line: (ordinal += 1), at: `line ${faultLine}`, reason: `not XML: ${fault}` };
  else if (count === 0) yield { line: 1, at: 'line 1', reason: 'not MARCXML: no <record> element' };
}
