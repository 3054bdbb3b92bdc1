// application/xml and text/xml → the same field object a form or JSON body gives.
// Rules: the root element's child elements are the fields; a repeated element becomes an
// array; an element with a `ref` attribute stands for that link, so its value is the ref URL
// (the element text is the link's label, which the server derives and ignores on input); an
// element with child elements becomes a nested field object; any other attribute is ignored.
// Security: a DOCTYPE (and with it every entity declaration, entity bomb and external entity)
// is refused before parsing; the parser's entity processing is off.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { addField, emptyFields, type Fields, type FieldValue } from './fields.ts';
import { HttpError } from '../errors/index.ts';
import { parserMessage } from '../errors/bounded-detail.ts';
import { decodeXmlText } from './xml-text.ts';

const MAX_DEPTH = 32;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
});

type Node = Record<string, unknown>;

function malformed(detail: string): HttpError {
  return new HttpError('SHELFMARK_BODY_MALFORMED', { detail });
}

function tagOf(node: Node): string | undefined {
  return Object.keys(node).find((k) => k !== ':@' && k !== '#text' && k !== '#cdata');
}

function textOf(children: Node[]): string {
  let text = '';
  for (const child of children) {
    if (typeof child['#text'] === 'string') text += decodeXmlText(child['#text']);
    const cdata = child['#cdata'];
    if (Array.isArray(cdata)) for (const c of cdata as Node[]) text += String(c['#text'] ?? '');
  }
  return text;
}

function valueOf(node: Node, tag: string, depth: number): FieldValue {
  const attrs = node[':@'] as Record<string, string> | undefined;
  if (attrs && typeof attrs.ref === 'string') return decodeXmlText(attrs.ref);
  const children = node[tag] as Node[];
  if (children.some((c) => tagOf(c) !== undefined)) return fieldsOf(children, depth + 1);
  return textOf(children);
}

function fieldsOf(children: Node[], depth: number): Fields {
  if (depth > MAX_DEPTH) throw malformed(`The XML body is nested deeper than ${MAX_DEPTH} levels.`);
  const fields = emptyFields();
  for (const child of children) {
    const tag = tagOf(child);
    if (tag !== undefined) addField(fields, tag, valueOf(child, tag, depth));
  }
  return fields;
}

function checkDeclaredEncoding(text: string): void {
  const decl = /^<\?xml\s[^>]*?encoding\s*=\s*["']([^"']*)["']/.exec(text);
  const encoding = decl?.[1]?.toLowerCase();
  if (encoding !== undefined && encoding !== 'utf-8' && encoding !== 'us-ascii') {
    throw new HttpError('SHELFMARK_UNSUPPORTED_MEDIA_TYPE', {
      detail: `XML bodies must be UTF-8, not ${decl?.[1]}.`,
      headers: { 'Accept-Post': 'application/x-www-form-urlencoded, application/json, application/xml' },
    });
  }
}

export function parseXmlFields(text: string): Fields {
  if (/<!\s*(?:DOCTYPE|ENTITY)/i.test(text)) {
    throw malformed('XML bodies must not contain a DOCTYPE or entity declarations.');
  }
  checkDeclaredEncoding(text);
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw malformed(`The XML body is malformed (line ${valid.err.line}): ${parserMessage(valid.err.msg)}`);
  let top: Node[];
  try {
    top = parser.parse(text) as Node[];
  } catch (error) {
    throw malformed(`The XML body is malformed: ${parserMessage((error as Error).message)}`);
  }
  const roots = top.filter((n) => tagOf(n) !== undefined);
  const root = roots[0];
  const rootTag = root && tagOf(root);
  if (roots.length !== 1 || !root || !rootTag)
    throw malformed('The XML body must have exactly one root element.');
  return fieldsOf(root[rootTag] as Node[], 1);
}
