// MARCXML (MARC 21 records in XML) read as a stream with a SAX parser (saxes): one record is held
// at a time, whatever the file's size. Each <record> becomes its control fields and data fields
// (tag, indicators, subfields in order), mapped to import items by marc-map.ts. Elements are
// matched by local name, so a `marc:` prefix or none both work. A file that is not well-formed
// XML cannot be read on past the fault: it is reported once, with its line, and reading stops.
// The bytes are decoded here, piece by piece (xml-pieces.ts, ADR 0078), in the encoding the XML
// declaration names: a record with bytes that are not that encoding, or longer than the limit,
// is refused whole and the next one read; its text is never stored (no U+FFFD, no half record).
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import type { ImportItem } from './import.ts';
import { DEFAULT_MAX_RECORD_BYTES, hexBytes, invalidUtf8, tooLong, type ReadOptions } from './lines.ts';
import { marcItems, type MarcRecord } from './marc-map.ts';
import { encodingOf, lineBreaks, startOfFile, xmlPieces } from './xml-pieces.ts';

const local = (name: string) => name.slice(name.indexOf(':') + 1);

interface OpenRecord {
  readonly marc: MarcRecord;
  /** Bytes of the file inside it so far. */
  bytes: number;
  /** Why it is not imported; its fields are no longer kept. */
  refused: string | null;
}

/** A closed record, or bytes outside any record that could not be read. */
type Ready = { readonly record: OpenRecord } | { readonly at: string; readonly reason: string };

export async function* readMarcXml(input: Readable, options: ReadOptions = {}): AsyncGenerator<ImportItem> {
  const max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const parser = new SaxesParser({ xmlns: false, position: true });
  const ready: Ready[] = [];
  let record: OpenRecord | null = null;
  let field: { tag: string; ind1: string; ind2: string; subfields: [string, string][] } | null = null;
  let code: string | null = null;
  let control: string | null = null;
  let text = '';
  let count = 0;
  let fault: string | null = null;
  let faultLine = 0;
  // Line breaks in bytes dropped from over-long pieces: the parser never saw them.
  let lineOffset = 0;
  // Bytes given to the parser since it last reported anything: what it may be holding.
  let sinceEvent = 0;
  const line = () => parser.line + lineOffset;
  const event = () => (sinceEvent = 0);
  const keeping = () => record !== null && record.refused === null;
  parser.on('xmldecl', event);
  parser.on('processinginstruction', event);
  parser.on('doctype', event);
  parser.on('comment', event);
  parser.on('opentag', (tag) => {
    event();
    if (fault !== null) return;
    const name = local(tag.name);
    const attr = (a: string) => String(tag.attributes[a] ?? '');
    text = '';
    if (name === 'record') {
      count += 1;
      record = {
        marc: { number: count, line: line(), control: new Map(), fields: [] },
        bytes: 0,
        refused: null,
      };
    } else if (!keeping()) return;
    else if (name === 'controlfield') control = attr('tag');
    else if (name === 'datafield')
      field = { tag: attr('tag'), ind1: attr('ind1'), ind2: attr('ind2'), subfields: [] };
    else if (name === 'subfield') code = attr('code');
  });
  const addText = (t: string) => {
    event();
    if (keeping()) text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', (tag) => {
    event();
    const name = local(tag.name);
    if (record === null || fault !== null) return;
    if (name === 'record') {
      ready.push({ record });
      record = null;
    } else if (record.refused !== null) return;
    else if (name === 'controlfield' && control !== null) {
      if (!record.marc.control.has(control)) record.marc.control.set(control, text.trim());
      control = null;
    } else if (name === 'subfield' && field !== null && code !== null) {
      field.subfields.push([code, text.replace(/\s+/g, ' ').trim()]);
      code = null;
    } else if (name === 'datafield' && field !== null) {
      record.marc.fields.push(field);
      field = null;
    }
  });
  // saxes goes on after an error; what follows a fault is not trusted (the record it is in is dropped).
  parser.on('error', (error) => {
    if (fault !== null) return;
    const where = /^(\d+):\d+: /.exec(error.message);
    faultLine = where ? Number(where[1]) + lineOffset : line();
    fault = where ? error.message.slice(where[0].length) : error.message;
  });
  const refuse = (r: OpenRecord, reason: string) => {
    if (r.refused !== null) return;
    r.refused = reason;
    r.marc.control.clear();
    r.marc.fields.length = 0;
    field = null;
    text = '';
  };
  let ordinal = 0;
  const drain = function* (): Generator<ImportItem> {
    for (const r of ready.splice(0)) {
      if ('reason' in r) yield { line: (ordinal += 1), at: r.at, reason: r.reason };
      else if (r.record.refused === null)
        for (const item of marcItems(r.record.marc, () => (ordinal += 1))) yield item;
      else {
        const { number, line } = r.record.marc;
        yield { line: (ordinal += 1), at: `record ${number} (line ${line})`, reason: r.record.refused };
      }
    }
  };
  let first = true;
  let bom = false;
  let decoder: Record<'fatal' | 'lenient', InstanceType<typeof TextDecoder>> | null = null;
  read: for await (const pieces of xmlPieces(input, max))
    for (const piece of pieces) {
      let bytes = piece.bytes;
      if (first) {
        first = false;
        ({ bytes, bom } = startOfFile(bytes));
      }
      if (decoder === null) {
        if (bytes.length === 0) continue;
        const encoding = encodingOf(bytes, bom);
        decoder = {
          fatal: new TextDecoder(encoding, { fatal: true, ignoreBOM: true }),
          lenient: new TextDecoder(encoding, { ignoreBOM: true }),
        };
      }
      const start = line();
      let chars: string;
      let bad: { line: number; what: string } | null = null;
      try {
        chars = decoder.fatal.decode(bytes);
      } catch {
        // The parser still needs the markup; the text (with U+FFFD) is never stored.
        chars = decoder.lenient.decode(bytes);
        bad = notEncoded(bytes, decoder.fatal.encoding, start);
      }
      sinceEvent += bytes.length;
      parser.write(chars);
      lineOffset += piece.skippedLines;
      // The piece's text is in the record open after its tag (its own `<record>` or an outer one).
      const owner = record as OpenRecord | null;
      if (owner !== null) {
        owner.bytes += bytes.length + piece.skipped;
        if (bad !== null)
          refuse(owner, `${bad.what} on line ${bad.line}: nothing of the record was imported`);
        if (owner.bytes > max) refuse(owner, tooLong(max, 'record'));
      } else if (bad !== null)
        ready.push({ at: `line ${bad.line}`, reason: `${bad.what}, outside a record` });
      else if (piece.skipped > 0)
        ready.push({ at: `line ${start}`, reason: `${tooLong(max, 'text')} outside a record, not read` });
      if (sinceEvent > max && fault === null) {
        faultLine = start;
        fault = `markup longer than ${max} bytes without an end (a tag, comment, CDATA section or declaration; --max-record-bytes)`;
      }
      // Only when a record is done: each `yield*` of an async generator costs promises.
      if (ready.length > 0) yield* drain();
      if (fault !== null) break read;
    }
  if (fault === null) parser.close();
  yield* drain();
  if (fault !== null) yield { line: (ordinal += 1), at: `line ${faultLine}`, reason: `not XML: ${fault}` };
  else if (count === 0) yield { line: 1, at: 'line 1', reason: 'not MARCXML: no <record> element' };
}

/** What is wrong with a piece's bytes, and the line of the first bad one. */
function notEncoded(bytes: Buffer, encoding: string, start: number): { line: number; what: string } {
  if (encoding !== 'utf-8') return { line: start, what: `a byte that is no ${encoding} character` };
  const { first, end } = invalidUtf8(bytes);
  return {
    line: start + lineBreaks(bytes.subarray(0, first)),
    what: `not UTF-8 (${hexBytes(bytes.subarray(first, end))})`,
  };
}
