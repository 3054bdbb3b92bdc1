// Character references and the five predefined entities, decoded by us because the parser's
// entity processing is off (it would also honour DTD-declared entities). Any other `&name;`
// is undeclared (there is no DTD) and a bare `&` is not well-formed: both → 400.
import { HttpError } from '../errors/index.ts';

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

function malformed(detail: string): HttpError {
  return new HttpError('SHELFMARK_BODY_MALFORMED', { detail });
}

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

export function decodeXmlText(text: string): string {
  return text.replace(/&([^;&]*);?/g, (match, name: string) => {
    if (!match.endsWith(';')) throw malformed('The XML body contains a bare "&".');
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    const ref = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(name);
    if (!ref) throw malformed(`The XML body uses the undeclared entity "&${name};".`);
    const cp = ref[1] !== undefined ? parseInt(ref[1], 16) : Number(ref[2]);
    if (!isXmlChar(cp)) throw malformed(`The XML body references a character XML does not allow (${name}).`);
    return String.fromCodePoint(cp);
  });
}
