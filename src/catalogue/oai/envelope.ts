// The OAI-PMH response document (OAI-PMH 2.0, 3.2): responseDate, the request echoed, then
// the verb's element or the errors. Written through the escaping xml template.
import { trusted, xml, XML_DECLARATION, type Markup } from '../../http/representation/markup.ts';
import type { OaiError } from './request.ts';
import type { RecordHeader } from './source.ts';
import { datestamp } from './dates.ts';

export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';
const OAI_SCHEMA = 'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** The argument names a request element may carry (all checked by request.ts before echoing). */
const ECHOED = ['verb', 'identifier', 'metadataPrefix', 'from', 'until', 'set', 'resumptionToken'];

export interface Envelope {
  readonly responseDate: Date;
  readonly baseUrl: string;
  /** The arguments to echo as attributes; null: none (badVerb, badArgument). */
  readonly args: Readonly<Record<string, string>> | null;
}

export function document(envelope: Envelope, body: Markup): string {
  const attributes = ECHOED.filter((name) => envelope.args?.[name] !== undefined).map(
    (name) => xml` ${trusted(name)}="${envelope.args![name]!}"`,
  );
  return `${XML_DECLARATION}${
    xml`<OAI-PMH xmlns="${OAI_NS}" xmlns:xsi="${XSI}" xsi:schemaLocation="${OAI_NS} ${OAI_SCHEMA}">
<responseDate>${datestamp(envelope.responseDate)}</responseDate>
<request${attributes}>${envelope.baseUrl}</request>
${body}
</OAI-PMH>
`.text
  }`;
}

export function errors(list: readonly OaiError[]): Markup {
  return xml`${list.map((e) => xml`<error code="${e.code}">${e.message}</error>`)}`;
}

export function header(identifier: string, h: RecordHeader): Markup {
  const status = h.deleted ? xml` status="deleted"` : '';
  return xml`<header${status}><identifier>${identifier}</identifier><datestamp>${datestamp(h.stamp)}</datestamp></header>`;
}
