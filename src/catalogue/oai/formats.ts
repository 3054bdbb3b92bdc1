// The metadata formats a work is disseminated in (ADR 0081): Dublin Core (oai_dc, every
// repository's must) and MARC 21 in the MARCXML slim schema with its holdings — each live copy
// as an 852 (location: $c shelving location, $j shelfmark, $p barcode, $t copy number, $z
// missing since), as union catalogues read a library's copies. Written through the escaping
// xml template; a work's URL is its identifier in both.
import { xml, type Markup } from '../../http/representation/markup.ts';
import { personPath, workPath } from '../shared/index.ts';
import type { RecordPerson, WorkRecord } from './source.ts';

export interface MetadataFormat {
  readonly prefix: string;
  readonly schema: string;
  readonly namespace: string;
  /** The record's `<metadata>` content. */
  render(record: WorkRecord, context: RenderContext): Markup;
}

export interface RenderContext {
  /** The absolute URL of a path under the base. */
  readonly absolute: (path: string) => string;
  /** The library's name, for the holdings' 852 $a. */
  readonly library: string;
}

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

const inverted = (p: RecordPerson) => (p.vorname === '' ? p.nachname : `${p.nachname}, ${p.vorname}`);

/** A four-digit year of the common era, which both formats' date fields can say; else null. */
const fourDigitYear = (jahr: number | null) =>
  jahr !== null && jahr >= 0 && jahr <= 9999 ? String(jahr).padStart(4, '0') : null;

const OAI_DC_NS = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
const DC_NS = 'http://purl.org/dc/elements/1.1/';

export const oaiDc: MetadataFormat = {
  prefix: 'oai_dc',
  schema: 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd',
  namespace: OAI_DC_NS,
  render(r, { absolute }) {
    const url = absolute(workPath(r.slug));
    const creators = r.personen.map((p) => xml`<dc:creator>${inverted(p)}</dc:creator>`);
    const date = r.jahr === null ? '' : xml`<dc:date>${String(r.jahr)}</dc:date>`;
    const isbn = r.isbn === null ? '' : xml`<dc:identifier>urn:isbn:${r.isbn}</dc:identifier>`;
    return xml`<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}" xmlns:xsi="${XSI}" xsi:schemaLocation="${OAI_DC_NS} ${this.schema}"><dc:title>${r.titel}</dc:title>${creators}<dc:type>Text</dc:type>${date}<dc:identifier>${url}</dc:identifier>${isbn}</oai_dc:dc>`;
  },
};

const MARC_NS = 'http://www.loc.gov/MARC21/slim';

/**
 * New record, language material, monograph, UCS/Unicode, encoding level 7 (minimal: the
 * catalogue keeps title, persons, year and ISBN only), ISBD punctuation ('i').
 */
const LEADER = '00000nam a22000007i 4500';

const subfield = (code: string, value: string) => xml`<marc:subfield code="${code}">${value}</marc:subfield>`;

function datafield(tag: string, ind1: string, ind2: string, subfields: readonly (Markup | '')[]): Markup {
  return xml`<marc:datafield tag="${tag}" ind1="${ind1}" ind2="${ind2}">${subfields}</marc:datafield>`;
}

/** 005: the record's last change, yyyymmddhhmmss.f. */
const latestTransaction = (stamp: string) =>
  `${stamp.replace(/[-:T]/g, '').slice(0, 14)}.${stamp.slice(20, 21)}`;

/** 008 for books: entered on (yymmdd), single known date or none, the rest unknown or filled. */
function fixedData(r: WorkRecord): string {
  const entered = r.createdAt.slice(2, 10).replace(/-/g, '');
  const year = fourDigitYear(r.jahr);
  const dates = year === null ? 'nuuuu    ' : `s${year}    `;
  return `${entered}${dates}xx ${'|'.repeat(17)}und d`;
}

/**
 * 100/700: the name inverted, relator "author", the person's URL as its identifier ($0). No
 * life dates ($d): a record carries what the work's own representations show, so that the
 * work's version is the record's datestamp (ADR 0081), and a person's life dates are not shown
 * there (nor do they move the work's version, ADR 0026).
 */
function personField(tag: '100' | '700', p: RecordPerson, url: string): Markup {
  return datafield(tag, '1', ' ', [subfield('a', inverted(p)), subfield('e', 'author'), subfield('0', url)]);
}

export const marc21: MetadataFormat = {
  prefix: 'marc21',
  schema: 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd',
  namespace: MARC_NS,
  render(r, { absolute, library }) {
    const url = absolute(workPath(r.slug));
    const [first, ...others] = r.personen;
    const personUrl = (p: RecordPerson) => absolute(personPath(p.slug));
    const year = fourDigitYear(r.jahr);
    const fields = [
      r.isbn === null ? '' : datafield('020', ' ', ' ', [subfield('a', r.isbn)]),
      first ? personField('100', first, personUrl(first)) : '',
      datafield('245', first ? '1' : '0', '0', [subfield('a', r.titel)]),
      r.jahr === null ? '' : datafield('264', ' ', '1', [subfield('c', year ?? String(r.jahr))]),
      ...others.map((p) => personField('700', p, personUrl(p))),
      ...r.copies.map((c) =>
        datafield('852', ' ', ' ', [
          subfield('a', library),
          subfield('c', c.standort),
          subfield('j', c.signatur),
          subfield('p', c.barcode),
          subfield('t', String(c.nummer)),
          c.missingSince === null ? '' : subfield('z', `missing since ${c.missingSince.slice(0, 10)}`),
        ]),
      ),
      datafield('856', '4', '0', [subfield('u', url)]),
    ];
    return xml`<marc:record xmlns:marc="${MARC_NS}" xmlns:xsi="${XSI}" xsi:schemaLocation="${MARC_NS} ${this.schema}" type="Bibliographic"><marc:leader>${LEADER}</marc:leader><marc:controlfield tag="001">${r.slug}</marc:controlfield><marc:controlfield tag="005">${latestTransaction(r.stamp)}</marc:controlfield><marc:controlfield tag="008">${fixedData(r)}</marc:controlfield>${fields}</marc:record>`;
  },
};

export const FORMATS: readonly MetadataFormat[] = [oaiDc, marc21];

export const formatOf = (prefix: string): MetadataFormat | undefined =>
  FORMATS.find((f) => f.prefix === prefix);
