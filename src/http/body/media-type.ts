// A Content-Type header value, split once per request (RFC 9110 §8.3.1): the media type in
// lower case and its charset parameter. The body parsers, the method override and the
// handler's ctx.bodyType all read this one result.
export interface MediaType {
  /** `application/json`, lower case; '' when the header is absent or empty. */
  readonly type: string;
  /** Every charset parameter, lower case and unquoted (normally none or one). */
  readonly charsets: readonly string[];
  /** The header as sent (for messages). */
  readonly header: string | undefined;
}

export function parseMediaType(header: string | undefined): MediaType {
  const [type = '', ...params] = (header ?? '').split(';');
  const charsets: string[] = [];
  for (const param of params) {
    const [name = '', value = ''] = param.split('=').map((s) => s.trim().toLowerCase());
    if (name === 'charset') charsets.push(value.replace(/^"|"$/g, ''));
  }
  return { type: type.trim().toLowerCase(), charsets, header };
}

/** What kind of body a media type announces; the body parsers accept only these. */
export function bodyTypeOf(media: MediaType): 'form' | 'json' | 'xml' | null {
  const type = media.type;
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  return null;
}
