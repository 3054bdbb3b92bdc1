// JSON inside an HTML <script type="application/ld+json"> element. The HTML parser ends the
// element at the first `</script` whatever the JSON means, and `<!--` changes how it reads on,
// so every `<`, `>` and `&` is written as a JSON escape (`\u003c`): the same JSON value, and no
// text the parser could take for markup. U+2028/2029 likewise, for readers that embed it in JS.
import { trusted, type Markup } from '../../http/representation/markup.ts';

const UNSAFE = /[<>&\u2028\u2029]/g;
const ANY_UNSAFE = /[<>&\u2028\u2029]/;

function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The value as JSON safe to place between `<script type="application/ld+json">` and `</script>`. */
export function scriptJson(value: unknown): Markup {
  const json = JSON.stringify(value);
  // Most values have nothing to escape: one test, no replace with a callback.
  return trusted(ANY_UNSAFE.test(json) ? json.replace(UNSAFE, escapeChar) : json);
}
