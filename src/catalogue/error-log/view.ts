// The error log's representations (docs/logs.md): a table newest first with level badges (HTML),
// and the same entries as XML and JSON. Messages are shown as written, escaped like Apache's
// (`\xc3\xa9`), with the escaped `\n` of stack traces as line breaks in HTML.
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, trusted, xml, type Markup } from '../../http/representation/markup.ts';
import { LEVELS, messageLines, type ErrorLogLine, type Level } from '../../logging/index.ts';
import { layout } from '../layout/index.ts';
import { ERROR_LOG_PATH, LIVE_PATH } from './access.ts';
import { entryJson, printable } from './entry-json.ts';
import { LIVE_SCRIPT_PATH } from './live-script.ts';
import { errorLogStrings, STDERR_NOTE } from './strings.ts';

export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 1000;

export interface ErrorLogModel {
  /** Newest first. */
  readonly entries: readonly ErrorLogLine[];
  readonly count: number;
  readonly minLevel: Level | null;
  /** The log goes to stderr (`-`): nothing to read here. */
  readonly toStderr: boolean;
  /** The scan limit was hit before `count` matching entries were found. */
  readonly truncated: boolean;
}

function query(count: number, minLevel: Level | null): string {
  const params = new URLSearchParams();
  if (count !== DEFAULT_COUNT) params.set('anzahl', String(count));
  if (minLevel !== null) params.set('stufe', minLevel);
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export const errorLogPath = (count: number, minLevel: Level | null): string =>
  ERROR_LOG_PATH + query(count, minLevel);
const livePath = (minLevel: Level | null): string => LIVE_PATH + query(DEFAULT_COUNT, minLevel);

/** HTML's datetime allows at most three fraction digits. */
const htmlDateTime = (iso: string): string => iso.slice(0, 23) + iso.slice(26);

function row(line: ErrorLogLine, ctx: RequestContext): Markup {
  const t = errorLogStrings(ctx.lang);
  if ('raw' in line) {
    return html`<tr>
      <td colspan="6" class="raw" title="${t.unparsed}">${printable(line.raw)}</td>
    </tr>`;
  }
  const message = printable(messageLines(line.message).join('\n'));
  const referer = line.referer === undefined ? '' : `\nReferer: ${printable(line.referer)}`;
  // data-label: on a phone each entry is a card and each cell names its column (shelfmark.css).
  return html`<tr>
    <td data-label="${t.time}">
      <time datetime="${htmlDateTime(line.time)}">${line.time.slice(0, 10)} ${line.time.slice(11, 19)}</time>
    </td>
    <td data-label="${t.level}"><span class="level level-${line.level}">${line.level}</span></td>
    <td data-label="${t.module}">${printable(line.module)}</td>
    <td data-label="${t.process}">${line.pid}</td>
    <td data-label="${t.client}">${printable(line.client ?? '')}</td>
    <td class="message">${message}${referer}</td>
  </tr>`;
}

function filterForm(m: ErrorLogModel, ctx: RequestContext): Markup {
  const t = errorLogStrings(ctx.lang);
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="${ctx.links.relative(ERROR_LOG_PATH)}" class="error-log-filter">
    <p>
      <label for="anzahl">${t.count}</label>
      <input id="anzahl" name="anzahl" type="number" min="1" max="${MAX_COUNT}" value="${m.count}" />
      <label for="stufe">${t.minLevel}</label>
      <select id="stufe" name="stufe">
        ${option('', t.allLevels, m.minLevel === null)}
        ${LEVELS.map((l) => option(l, l, m.minLevel === l))}
      </select>
      <button type="submit">${t.show}</button>
    </p>
  </form>`;
}

function errorLogHtml(m: ErrorLogModel, ctx: RequestContext): Markup {
  const t = errorLogStrings(ctx.lang);
  const live = ctx.links.relative(livePath(m.minLevel));
  const body = m.toStderr
    ? html`<p class="note">${t.stderr}</p>`
    : html`${filterForm(m, ctx)}
        <p>${t.intro(m.count)} <a href="${live}" type="text/event-stream">${t.live}</a> (${t.liveOn})</p>
        ${m.truncated ? html`<p class="note">${t.truncated}</p>` : ''}
        ${m.entries.length === 0 ? html`<p>${t.none}</p>` : ''}
        <table class="error-log" data-live="${live}">
          <thead>
            <tr>
              ${[t.time, t.level, t.module, t.process, t.client, t.message].map((h) => html`<th scope="col">${h}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${m.entries.map((e) => row(e, ctx))}
          </tbody>
        </table>
        <script src="${ctx.links.relative(LIVE_SCRIPT_PATH)}"></script>`;
  const main = html`<article class="error-log-page">
    <h1>${t.title}</h1>
    ${body}
  </article>`;
  return layout(
    { title: t.title, main, canonicalPath: errorLogPath(m.count, m.minLevel), section: 'error-log' },
    ctx,
  );
}

function entryXml(line: ErrorLogLine): Markup {
  if ('raw' in line) return xml`\n  <zeile>${printable(line.raw)}</zeile>`;
  const e = entryJson(line) as Exclude<ReturnType<typeof entryJson>, { zeile: string }>;
  const attr = (name: string, value: string | number | undefined) =>
    value === undefined ? '' : xml` ${trusted(name)}="${String(value)}"`;
  return xml`
  <eintrag zeit="${e.zeit}" modul="${e.modul}" stufe="${e.stufe}" pid="${String(e.pid)}"${attr('tid', e.tid)}${attr('quelle', e.quelle)}${attr('systemfehler', e.systemfehler)}${attr('client', e.client)}>
    <meldung>${e.meldung}</meldung>${
      e.referer === undefined
        ? ''
        : xml`
    <referer>${e.referer}</referer>`
    }
  </eintrag>`;
}

function errorLogXml(m: ErrorLogModel, ctx: RequestContext): Markup {
  const stufe = m.minLevel === null ? '' : xml` stufe="${m.minLevel}"`;
  const note = m.toStderr ? xml`\n  <hinweis>${STDERR_NOTE}</hinweis>` : '';
  return xml`<fehlerprotokoll anzahl="${String(m.count)}"${stufe} live="${ctx.links.absolute(livePath(m.minLevel))}" unvollstaendig="${String(m.truncated)}">${note}${m.entries.map(entryXml)}
</fehlerprotokoll>`;
}

function errorLogJson(m: ErrorLogModel, ctx: RequestContext): unknown {
  return {
    anzahl: m.count,
    stufe: m.minLevel,
    live: ctx.links.absolute(livePath(m.minLevel)),
    unvollstaendig: m.truncated,
    ...(m.toStderr && { hinweis: STDERR_NOTE }),
    eintrag: m.entries.map(entryJson),
  };
}

export const errorLogView: View<ErrorLogModel> = { html: errorLogHtml, xml: errorLogXml, json: errorLogJson };
