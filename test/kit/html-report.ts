// Test helper: the Nu HTML Checker's errors for a batch of pages (one JVM for all of them,
// through test/support/html.ts) as one readable report, '' when every page is valid.
import { validateHtml, type HtmlPage } from '../support/html.ts';

export async function htmlReport(pages: HtmlPage[]): Promise<string> {
  const results = await validateHtml(pages);
  return results
    .flatMap(({ name, messages }) =>
      messages.map(
        (m) => `${name}:${m.lastLine ?? '?'}: ${m.type}: ${m.message}${m.extract ? `\n  ${m.extract}` : ''}`,
      ),
    )
    .join('\n');
}
