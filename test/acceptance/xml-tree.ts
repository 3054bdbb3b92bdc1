// An XML document as an ordered tree, so tests can assert element order, attribute sets and
// "nothing else" exactly. fast-xml-parser never expands external entities.
import { XMLParser } from 'fast-xml-parser';

export type XmlElement = {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text (trimmed), '' when it has none. */
  readonly text: string;
};

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
});

type Raw = Record<string, unknown> & { ':@'?: Record<string, string> };

/** The document element; throws when the text is not one well-formed element. */
export function parseXml(xml: string): XmlElement {
  const nodes = (parser.parse(xml) as Raw[]).filter((n) => !('?xml' in n));
  const elements = nodes.map(toElement).filter((e): e is XmlElement => e !== null);
  if (elements.length !== 1) throw new Error(`expected one document element, got ${elements.length}`);
  return elements[0]!;
}

function toElement(node: Raw): XmlElement | null {
  const name = Object.keys(node).find((k) => k !== ':@');
  if (name === undefined || name === '#text') return null;
  const content = (node[name] as Raw[]) ?? [];
  return {
    name,
    attributes: node[':@'] ?? {},
    children: content.map(toElement).filter((e): e is XmlElement => e !== null),
    text: content
      .filter((c) => '#text' in c)
      .map((c) => String(c['#text']))
      .join(''),
  };
}
