// The six OAI-PMH verbs over the works (ADR 0081): what each answers, and every error the
// protocol names for it. Lists are pages of `pageSize` records (ListIdentifiers five times as
// many headers), walked by resumption tokens (token.ts) that carry the whole position, so the
// server keeps nothing between pages and a page's work is bounded whatever the catalogue's size.
import { xml, type Markup } from '../../http/representation/markup.ts';
import { datestamp, endOfSecond, GRANULARITY } from './dates.ts';
import { document, errors, header } from './envelope.ts';
import { FORMATS, formatOf, type MetadataFormat } from './formats.ts';
import type { ListRequest, OaiError, OaiRequest, RawArguments } from './request.ts';
import { parseRequest } from './request.ts';
import type { RecordHeader, RecordSource, StampRange } from './source.ts';
import { decodeToken, encodeToken, type ListPosition, type ListVerb } from './token.ts';

export const DEFAULT_PAGE_SIZE = 100;

/** ListIdentifiers pages carry this many times as many headers as ListRecords pages records. */
const HEADERS_PER_RECORD = 5;

export interface ProviderOptions {
  readonly source: RecordSource;
  /** Identify's repositoryName, and the holdings' library (852 $a). */
  readonly repositoryName: string;
  /** Default: webmaster@ the base URL's host (see defaultAdminEmail). */
  readonly adminEmail?: string;
  /** The moment of the response (responseDate, the first page's until bound). */
  readonly now: () => Date;
  /** Records per ListRecords page (default 100). */
  readonly pageSize?: number;
}

/** Where the repository is: its base URL and how paths under the base become absolute. */
export interface Place {
  readonly baseUrl: string;
  readonly absolute: (path: string) => string;
  /** The host named in every identifier: `oai:{host}:{slug}`. */
  readonly host: string;
}

/**
 * webmaster@ the host, as Apache's ServerAdmin is by convention; a host without a dot
 * (`localhost`) gets `.localdomain`, since the protocol's schema wants a dotted domain.
 */
export function defaultAdminEmail(host: string): string {
  return `webmaster@${host.includes('.') ? host : `${host}.localdomain`}`;
}

const fail = (code: OaiError['code'], message: string): OaiError => ({ code, message });

export function createProvider(options: ProviderOptions) {
  const { source } = options;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const sizeOf = (verb: ListVerb) => (verb === 'ListRecords' ? pageSize : pageSize * HEADERS_PER_RECORD);

  const identifierOf = (place: Place, slug: string) => `oai:${place.host}:${slug}`;
  const slugOf = (place: Place, identifier: string) => {
    const prefix = `oai:${place.host}:`;
    return identifier.startsWith(prefix) ? identifier.slice(prefix.length) : null;
  };
  const lookup = async (place: Place, identifier: string): Promise<RecordHeader | null> => {
    const slug = slugOf(place, identifier);
    return slug === null || slug === '' ? null : source.bySlug(slug);
  };
  const noSuchId = () => fail('idDoesNotExist', 'No item has this identifier.');
  const noFormat = () =>
    fail('cannotDisseminateFormat', 'The metadataPrefix names no format of this repository.');

  async function records(
    place: Place,
    headers: readonly RecordHeader[],
    format: MetadataFormat | null,
  ): Promise<Markup[]> {
    if (format === null) return headers.map((h) => header(identifierOf(place, h.slug), h));
    const context = { absolute: place.absolute, library: options.repositoryName };
    return (await source.records(headers)).map((r) => {
      const head = header(identifierOf(place, r.slug), r);
      if (r.deleted) return xml`<record>${head}</record>`;
      return xml`<record>${head}<metadata>${format.render(r, context)}</metadata></record>`;
    });
  }

  async function identify(place: Place, now: Date): Promise<Markup> {
    const earliest = (await source.earliest()) ?? now.toISOString();
    return xml`<Identify><repositoryName>${options.repositoryName}</repositoryName><baseURL>${place.baseUrl}</baseURL><protocolVersion>2.0</protocolVersion><adminEmail>${options.adminEmail ?? defaultAdminEmail(place.host)}</adminEmail><earliestDatestamp>${datestamp(earliest)}</earliestDatestamp><deletedRecord>persistent</deletedRecord><granularity>${GRANULARITY}</granularity><compression>gzip</compression></Identify>`;
  }

  async function metadataFormats(place: Place, identifier: string | null): Promise<Markup | OaiError[]> {
    if (identifier !== null && !(await lookup(place, identifier))) return [noSuchId()];
    const formats = FORMATS.map(
      (f) =>
        xml`<metadataFormat><metadataPrefix>${f.prefix}</metadataPrefix><schema>${f.schema}</schema><metadataNamespace>${f.namespace}</metadataNamespace></metadataFormat>`,
    );
    return xml`<ListMetadataFormats>${formats}</ListMetadataFormats>`;
  }

  async function getRecord(place: Place, identifier: string, prefix: string): Promise<Markup | OaiError[]> {
    const format = formatOf(prefix);
    const found = await lookup(place, identifier);
    const problems = [...(format ? [] : [noFormat()]), ...(found ? [] : [noSuchId()])];
    if (!format || !found) return problems;
    const [record] = await records(place, [found], format);
    return xml`<GetRecord>${record!}</GetRecord>`;
  }

  /** The first page's position, or the errors of the request's arguments. */
  async function firstPosition(
    request: Extract<ListRequest, { metadataPrefix: string }>,
    now: Date,
  ): Promise<ListPosition | OaiError[]> {
    const problems: OaiError[] = [];
    if (!formatOf(request.metadataPrefix)) problems.push(noFormat());
    if (request.set !== null) problems.push(fail('noSetHierarchy', 'This repository has no sets.'));
    if (problems.length > 0) return problems;
    // No later than this response's second, even when `until` is later: a record written
    // while the harvest pages gets a later stamp, so it is left for the next harvest rather
    // than sent twice in this one.
    const endOfResponse = endOfSecond(now);
    const asked = request.until?.end;
    const range: StampRange = {
      from: request.from?.start ?? null,
      until: asked !== undefined && asked < endOfResponse ? asked : endOfResponse,
    };
    const total = await source.count(range);
    if (total === 0) return [fail('noRecordsMatch', 'No record lies in this range.')];
    return {
      verb: request.verb,
      metadataPrefix: request.metadataPrefix,
      ...range,
      // Read only once a page was sent (cursor > 0).
      after: { stamp: '', id: 0 },
      cursor: 0,
      total,
    };
  }

  async function list(place: Place, request: ListRequest, now: Date): Promise<Markup | OaiError[]> {
    let position: ListPosition | OaiError[];
    if ('resumptionToken' in request) {
      const decoded = decodeToken(request.resumptionToken);
      position =
        decoded && decoded.verb === request.verb && formatOf(decoded.metadataPrefix)
          ? decoded
          : [
              fail(
                'badResumptionToken',
                'The resumptionToken is not one this repository issued for this verb.',
              ),
            ];
    } else position = await firstPosition(request, now);
    if (Array.isArray(position)) return position;
    const n = sizeOf(request.verb);
    const after = position.cursor === 0 ? null : position.after;
    const headers = await source.headers(position, after, n + 1);
    // Every record left moved past the harvest's until bound since the last page.
    if (headers.length === 0) return [fail('noRecordsMatch', 'No record is left in this range.')];
    const page = headers.slice(0, n);
    const format = request.verb === 'ListRecords' ? formatOf(position.metadataPrefix)! : null;
    const items = await records(place, page, format);
    const last = page[page.length - 1]!;
    const sent = position.cursor + page.length;
    // The count of the first page, unless the list turned out longer (a write in its second).
    const size = String(Math.max(position.total, sent + (headers.length > n ? 1 : 0)));
    const cursor = String(position.cursor);
    const token =
      headers.length > n
        ? xml`<resumptionToken completeListSize="${size}" cursor="${cursor}">${encodeToken({ ...position, after: { stamp: last.stamp, id: last.id }, cursor: sent })}</resumptionToken>`
        : position.cursor > 0
          ? xml`<resumptionToken completeListSize="${size}" cursor="${cursor}"/>`
          : '';
    return xml`<${request.verb}>${items}${token}</${request.verb}>`;
  }

  async function body(place: Place, request: OaiRequest, now: Date): Promise<Markup | OaiError[]> {
    switch (request.verb) {
      case 'Identify':
        return identify(place, now);
      case 'ListMetadataFormats':
        return metadataFormats(place, request.identifier);
      case 'ListSets':
        return request.resumptionToken === null
          ? [fail('noSetHierarchy', 'This repository has no sets.')]
          : [
              fail(
                'badResumptionToken',
                'ListSets has no resumptionToken here: this repository has no sets.',
              ),
            ];
      case 'GetRecord':
        return getRecord(place, request.identifier, request.metadataPrefix);
      default:
        return list(place, request, now);
    }
  }

  return {
    /** The response document for these arguments (null: they were not well-formed). */
    async answer(place: Place, raw: RawArguments | null): Promise<string> {
      const now = options.now();
      const parsed =
        raw === null
          ? { errors: [fail('badArgument', 'The arguments are not well-formed.')] }
          : parseRequest(raw);
      if ('errors' in parsed)
        return document({ responseDate: now, baseUrl: place.baseUrl, args: null }, errors(parsed.errors));
      const result = await body(place, parsed.request, now);
      const envelope = { responseDate: now, baseUrl: place.baseUrl, args: parsed.request.args };
      return document(envelope, Array.isArray(result) ? errors(result) : result);
    },
  };
}

export type Provider = ReturnType<typeof createProvider>;
