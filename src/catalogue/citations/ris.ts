// A work as a RIS record (application/x-research-info-systems), what Zotero, EndNote and Citavi
// import (ADR 0095). The format's rules: every line is a two-letter tag, two spaces, a hyphen
// and a space, then the value; lines end in CRLF; the record opens with TY and closes with an
// empty ER. A value is one line, so line breaks and other controls in data become spaces.
import type { RequestContext } from '../../http/resource/types.ts';
import type { Work } from '../model.ts';
import { workPath } from '../shared/index.ts';
import { strings } from '../i18n/index.ts';

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

function line(tag: string, value: string): string {
  return `${tag}  - ${value.replace(CONTROLS, ' ').trim()}\r\n`;
}

export function workRis(work: Work, ctx: RequestContext): string {
  const authors = work.personen.map((p) =>
    line('AU', p.vorname ? `${p.nachname}, ${p.vorname}` : p.nachname),
  );
  return [
    line('TY', 'BOOK'),
    line('TI', work.titel),
    ...authors,
    ...(work.jahr !== null ? [line('PY', String(work.jahr))] : []),
    line('UR', ctx.links.absolute(workPath(work.slug))),
    line('DB', strings(ctx.lang).siteName),
    line('ID', work.slug),
    // The record's end: the tag with nothing after the separator's space.
    'ER  - \r\n',
  ].join('');
}
