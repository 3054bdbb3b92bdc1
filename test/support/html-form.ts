// Reads an HTML form the way a browser submits it: the successful controls of the first <form>
// whose action is the given path, in document order — named inputs (text, hidden, url; not
// buttons, unchecked boxes or disabled controls) and text areas — with character references
// decoded. Enough for the catalogue's own server-rendered forms; not a general HTML parser.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes character references (`&amp;`, `&#39;`, `&#x2F;`). */
export function decodeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of tag.matchAll(
    /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g,
  )) {
    const name = m[1]!.toLowerCase();
    if (!found.has(name)) found.set(name, decodeHtml(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return found;
}

/** The [name, value] pairs a browser would send for the form posting to `action`; throws when there is none. */
export function formFields(html: string, action: string, formClass?: string): [string, string][] {
  for (const form of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attrs = attributes(form[1]!.replace(/^\s*/, ''));
    if (attrs.get('action') !== action) continue;
    if (formClass !== undefined && !(attrs.get('class') ?? '').split(/\s+/).includes(formClass)) continue;
    const fields: [string, string][] = [];
    const controls = /<input\b([^>]*?)\/?>|<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/gi;
    for (const control of form[2]!.matchAll(controls)) {
      const isTextarea = control[2] !== undefined;
      const a = attributes(isTextarea ? control[2]! : control[1]!);
      const name = a.get('name');
      if (name === undefined || a.has('disabled')) continue;
      if (isTextarea) {
        // A browser drops one newline right after <textarea> and sends line breaks as CRLF.
        fields.push([
          name,
          decodeHtml(control[3] ?? '')
            .replace(/^\n/, '')
            .replace(/\r?\n/g, '\r\n'),
        ]);
        continue;
      }
      const type = (a.get('type') ?? 'text').toLowerCase();
      if (['submit', 'button', 'reset', 'image', 'file'].includes(type)) continue;
      if ((type === 'checkbox' || type === 'radio') && !a.has('checked')) continue;
      fields.push([name, a.get('value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : '')]);
    }
    return fields;
  }
  throw new Error(`no form with action ${action}${formClass ? ` and class ${formClass}` : ''}`);
}
