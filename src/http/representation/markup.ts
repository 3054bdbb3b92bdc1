// Tagged-template writers for HTML and XML. Every interpolation is escaped unless it is
// already a Markup value (the result of another template, or explicitly marked by `trusted`).
// Arrays are joined; null, undefined and false render as nothing.

const MARKUP = Symbol('markup');

/** A fragment of markup whose text is already escaped. */
export interface Markup {
  readonly [MARKUP]: true;
  readonly text: string;
  toString(): string;
}

/** A class, not an object literal with its own toString closure: a page makes hundreds. */
class MarkupText implements Markup {
  readonly [MARKUP] = true as const;
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

export function isMarkup(value: unknown): value is Markup {
  return value instanceof MarkupText;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

/** Escapes text for HTML and XML element content and (double- or single-quoted) attributes. */
export function escapeMarkup(text: string): string {
  // Most text has nothing to escape: one test, no replace and no new string.
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c] ?? c) : text;
}

// XML 1.0 forbids most C0 controls even as character references; replace them (and lone
// surrogates) with U+FFFD rather than emit a document xmllint rejects.
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes text for XML, also removing characters XML 1.0 cannot carry. */
export function escapeXmlText(text: string): string {
  return escapeMarkup(text.replace(XML_INVALID, '\ufffd'));
}

export type Interpolation =
  Markup | string | number | bigint | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation, escape: (s: string) => string): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) {
    let out = '';
    for (const v of value as readonly Interpolation[]) out += render(v, escape);
    return out;
  }
  if (isMarkup(value)) return value.text;
  return escape(String(value));
}

type Statics = (strings: TemplateStringsArray) => readonly string[];

function template(escape: (s: string) => string, statics: Statics) {
  return (source: TemplateStringsArray, ...values: Interpolation[]): Markup => {
    const strings = statics(source);
    let out = strings[0] ?? '';
    for (let i = 0; i < values.length; i++) out += render(values[i], escape) + (strings[i + 1] ?? '');
    return new MarkupText(out);
  };
}

const asWritten: Statics = (strings) => strings;

/**
 * An HTML template's own text without the source's indentation and blank lines: a line break
 * and the blanks after it become one line break, which HTML renders alike (the pages' `pre`
 * and `textarea` contents are all interpolated values, which stay as they are). A page is a
 * third smaller. Done once per template (a call site's strings are one object).
 */
const withoutIndentation: Statics = (() => {
  const done = new WeakMap<TemplateStringsArray, readonly string[]>();
  return (strings) => {
    let compact = done.get(strings);
    if (compact === undefined) {
      compact = strings.map((part) => part.replace(/\n\s+/g, '\n'));
      done.set(strings, compact);
    }
    return compact;
  };
})();

/** `html\`<p>${name}</p>\`` — escapes every interpolation that is not already Markup. */
export const html = template(escapeMarkup, withoutIndentation);

/** `xml\`<titel>${title}</titel>\`` — like `html`, and strips characters XML cannot carry. */
export const xml = template(escapeXmlText, asWritten);

/** Marks a string as already-safe markup. Use only for text the program itself produced. */
export function trusted(text: string): Markup {
  return new MarkupText(text);
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
