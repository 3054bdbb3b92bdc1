// A work as a BibTeX entry (application/x-bibtex), for LaTeX users and reference managers
// (ADR 0095). Data goes into brace-delimited fields with TeX's special characters escaped,
// so a title with `{`, `%` or `&` neither ends its field nor starts a comment or an alignment,
// and `~`, `^` and `--` stay the characters they are (not a space, an accent or a dash).
// Authors are "Last, First" joined by ` and `; a name part that holds ` and ` or a comma is
// braced, so BibTeX reads it as one name. The key is the work's slug (letters, digits, hyphens).
import type { RequestContext } from '../../http/resource/types.ts';
import type { PersonRef, Work } from '../model.ts';
import { workPath } from '../shared/index.ts';

const SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '%': '\\%',
  '#': '\\#',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
};

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/** Text for a braced BibTeX field: specials escaped, one line. */
export function escapeBibtex(text: string): string {
  return (
    text
      .replace(CONTROLS, ' ')
      .replace(/[\\{}$&%#_^~]/g, (c) => SPECIALS[c] ?? c)
      // TeX makes `--` an en dash and `---` an em dash: an empty group keeps the hyphens apart.
      .replace(/-(?=-)/g, '-{}')
  );
}

function namePart(part: string): string {
  const escaped = escapeBibtex(part);
  return /\sand\s|,/i.test(part) ? `{${escaped}}` : escaped;
}

function author(p: PersonRef): string {
  return p.vorname ? `${namePart(p.nachname)}, ${namePart(p.vorname)}` : namePart(p.nachname);
}

export function workBibtex(work: Work, ctx: RequestContext): string {
  const fields: [string, string][] = [
    ['title', escapeBibtex(work.titel)],
    ...(work.personen.length > 0
      ? [['author', work.personen.map(author).join(' and ')] as [string, string]]
      : []),
    ...(work.jahr !== null ? [['year', String(work.jahr)] as [string, string]] : []),
    // A URL field is read verbatim by biblatex; a work's URL has no braces (slugs are ASCII).
    ['url', ctx.links.absolute(workPath(work.slug))],
  ];
  return `@book{${work.slug},\n${fields.map(([name, value]) => `  ${name} = {${value}}`).join(',\n')}\n}\n`;
}
