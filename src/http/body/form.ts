// application/x-www-form-urlencoded, parsed by hand rather than with URLSearchParams because
// URLSearchParams turns invalid percent-encoded UTF-8 into U+FFFD without telling anyone.
import { addField, emptyFields, type Fields } from './fields.ts';
import { HttpError } from '../errors/index.ts';

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new HttpError('SHELFMARK_BODY_MALFORMED', {
      detail: 'The form body has a malformed percent-encoding.',
    });
  }
}

/** Repeated names become arrays; a name without `=` has the value ''. */
export function parseForm(text: string): Fields {
  const fields = emptyFields();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    addField(fields, name, value);
  }
  return fields;
}
