// RFC 9457 problem details: the object, and its JSON and XML (RFC 7807 appendix A) forms.
import { XML_DECLARATION, xml, type Markup } from '../representation/markup.ts';
import type { AvailableLink, FieldError, LocalDetail } from './http-error.ts';
import type { ExceptionDetails } from './exception-details.ts';

export const PROBLEM_NAMESPACE = 'urn:ietf:rfc:7807';
export const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
export const PROBLEM_XML = 'application/problem+xml; charset=utf-8';

export interface Problem {
  /** `about:blank`: the title is the HTTP status phrase; `code` tells errors apart. */
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  /** The absolute URL the client requested. */
  readonly instance?: string;
  readonly code: string;
  readonly errors?: readonly FieldError[];
  readonly available?: readonly AvailableLink[];
  /** Only when displayErrors is on, only for 500s. */
  readonly exception?: ExceptionDetails;
  /** The detail per interface language, for HTML pages only: never serialized. */
  readonly localDetail?: LocalDetail;
}

export function problemJson(problem: Problem): string {
  // Key order as in the RFC's examples; undefined members disappear.
  const { type, title, status, detail, instance, code, errors, available, exception } = problem;
  return JSON.stringify({ type, title, status, detail, instance, code, errors, available, exception });
}

function item(body: Markup): Markup {
  return xml`<i>${body}</i>`;
}

export function problemXml(p: Problem): string {
  const errors =
    p.errors &&
    xml`<errors>${p.errors.map((e) => item(xml`<field>${e.field}</field><detail>${e.detail}</detail>`))}</errors>`;
  const available =
    p.available &&
    xml`<available>${p.available.map((a) => xml`<i type="${a.type}" ref="${a.url}">${a.label}</i>`)}</available>`;
  const e = p.exception;
  const exception =
    e &&
    xml`<exception><class>${e.class}</class><message>${e.message}</message><file>${e.file}</file><line>${e.line}</line><stack>${e.stack}</stack><source>${e.source}</source></exception>`;
  const members = [
    xml`<type>${p.type}</type>`,
    xml`<title>${p.title}</title>`,
    xml`<status>${p.status}</status>`,
    p.detail !== undefined && xml`<detail>${p.detail}</detail>`,
    p.instance !== undefined && xml`<instance>${p.instance}</instance>`,
    xml`<code>${p.code}</code>`,
    errors,
    available,
    exception,
  ].filter((m): m is Markup => Boolean(m));
  const body = xml`<problem xmlns="${PROBLEM_NAMESPACE}">\n${members.map((m) => xml`  ${m}\n`)}</problem>\n`;
  return XML_DECLARATION + body.text;
}
