// HTML validity with the Nu HTML Checker (vnu-jar), the W3C's own validator. The JVM takes
// seconds to start, so every page of a test run goes through one java process.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VNU_JAR } from './requirements.ts';
import { runCommand } from './run-command.ts';

export type HtmlPage = { name: string; html: string };
export type HtmlMessage = {
  type: string; // "error" or "non-document-error" (the checker could not read the page)
  message: string;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
  extract?: string;
};
export type HtmlValidation = { name: string; messages: HtmlMessage[] };

/**
 * Checks every page (errors only, no warnings) and returns one entry per page, in the
 * order given; a valid page has no messages. Throws when java or the checker cannot run.
 */
export async function validateHtml(pages: HtmlPage[]): Promise<HtmlValidation[]> {
  if (pages.length === 0) return [];
  const dir = await mkdtemp(path.join(tmpdir(), 'shelfmark-html-'));
  try {
    // Files are named by position so that any page name (slashes, spaces) is safe.
    const files = pages.map((_, i) => path.join(dir, `page-${i}.html`));
    await Promise.all(pages.map((page, i) => writeFile(files[i]!, page.html, 'utf8')));
    const result = await runCommand('java', ['-jar', VNU_JAR, '--format', 'json', '--errors-only', ...files]);
    const messages = parseReport(result.stderr, result.code);
    return pages.map((page, i) => ({
      name: page.name,
      messages: messages
        .filter((m) => m.url !== undefined && path.basename(m.url) === `page-${i}.html`)
        .map(strip),
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type ReportMessage = HtmlMessage & { url?: string; hiliteStart?: number; hiliteLength?: number };

function parseReport(stderr: string, code: number | null): ReportMessage[] {
  const json = stderr.slice(stderr.indexOf('{'));
  try {
    const report = JSON.parse(json) as { messages?: ReportMessage[] };
    return report.messages ?? [];
  } catch {
    throw new Error(`the Nu HTML Checker gave no JSON report (exit code ${code}):\n${stderr}`);
  }
}

function strip({ url: _url, hiliteStart: _s, hiliteLength: _l, ...message }: ReportMessage): HtmlMessage {
  return message;
}
