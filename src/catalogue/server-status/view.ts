// The server status for people (HTML, laid out like mod_status's page) and as XML and JSON,
// whose names are mod_status's `?auto` keys without spaces. The `?auto` text itself is auto.ts.
import type { RequestContext, View } from '../../http/resource/types.ts';
import { html, trusted, xml, type Markup } from '../../http/representation/markup.ts';
import { aprG, statusTime, uptimeText, type ServerStatus, type Summary } from '../../logging/index.ts';
import { layout } from '../layout/index.ts';
import { momentHtml } from '../shared/index.ts';
import { SERVER_STATUS_PATH } from './access.ts';
import { serverStatusStrings } from './strings.ts';

export interface ServerStatusModel {
  readonly status: ServerStatus;
  readonly summary: Summary;
}

/** Key → value, in the order of the `?auto` text. */
function fields(m: ServerStatusModel): [string, string | number][] {
  const { status: st, summary: s } = m;
  const perReq = (n: number) => (s.accesses > 0 ? aprG(n / s.accesses) : '0');
  const perSec = (n: number) => (s.uptime > 0 ? aprG(n / s.uptime) : '0');
  return [
    ['ServerVersion', st.serverVersion],
    ['ServerMPM', 'prefork'],
    ['CurrentTime', statusTime(st.nowMs)],
    ['RestartTime', statusTime(st.restartMs)],
    ['ParentServerConfigGeneration', st.generation + 1],
    ['ParentServerMPMGeneration', st.generation],
    ['ServerUptimeSeconds', s.uptime],
    ['TotalAccesses', s.accesses],
    ['TotalKBytes', s.kBytes],
    ['TotalDuration', s.durationMs],
    ['CPUUser', aprG(s.cpuUser)],
    ['CPUSystem', aprG(s.cpuSystem)],
    ['ReqPerSec', perSec(s.accesses)],
    ['BytesPerSec', perSec(1024 * s.kBytes)],
    ['BytesPerReq', perReq(1024 * s.kBytes)],
    ['DurationPerReq', perReq(s.durationMs)],
    ['BusyWorkers', s.busy],
    ['GracefulWorkers', s.graceful],
    ['IdleWorkers', s.idle],
    ['Scoreboard', s.scoreboard],
  ];
}

function statusHtml(m: ServerStatusModel, ctx: RequestContext): Markup {
  const t = serverStatusStrings(ctx.lang);
  const { status: st, summary: s } = m;
  const f = Object.fromEntries(fields(m));
  const row = (label: string, value: string | number | Markup) => html`<dt>${label}</dt>
    <dd>${typeof value === 'number' ? String(value) : value}</dd>`;
  const main = html`<article class="server-status">
    <h1>${t.title}</h1>
    <dl>
      ${row(t.version, st.serverVersion)} ${row('MPM', 'prefork')} ${row(t.now, momentHtml(new Date(st.nowMs), ctx.lang))}
      ${row(t.restart, momentHtml(new Date(st.restartMs), ctx.lang))} ${row(t.generation, st.generation)}
      ${row(t.uptime, uptimeText(s.uptime) || '0')} ${row(t.load, st.load.map((l) => l.toFixed(2)).join(' '))}
      ${row(t.accesses, s.accesses)} ${row(t.traffic, `${s.kBytes} kB`)} ${row(t.duration, `${s.durationMs} ms`)}
      ${row(t.cpu, `${aprG(s.cpuUser)} s / ${aprG(s.cpuSystem)} s`)}
      ${row(t.rates, `${f.ReqPerSec} · ${f.BytesPerSec} · ${f.BytesPerReq} · ${f.DurationPerReq}`)}
    </dl>
    <p>${t.workers(s.busy, s.graceful, s.idle)}</p>
    <h2>${t.scoreboard}</h2>
    <pre>${s.scoreboard}</pre>
    <p>${t.key}</p>
    <table>
      <thead>
        <tr>
          ${[t.slot, t.pid, t.mode, t.accesses, t.kbytes, t.durationMs].map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${st.slots.map(
          (slot, i) =>
            html`<tr>
              <td>${String(i)}</td>
              <td>${slot.snapshot ? String(slot.snapshot.pid) : '-'}</td>
              <td>${slot.state}</td>
              <td>${slot.snapshot ? String(slot.snapshot.accesses) : '-'}</td>
              <td>${slot.snapshot ? String(Math.floor(slot.snapshot.bytes / 1024)) : '-'}</td>
              <td>${slot.snapshot ? String(slot.snapshot.durationMs) : '-'}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <p>${t.machine} <a href="${ctx.links.relative(SERVER_STATUS_PATH + '?auto')}">?auto</a></p>
  </article>`;
  return layout({ title: t.title, main, canonicalPath: SERVER_STATUS_PATH, section: 'server-status' }, ctx);
}

function statusXml(m: ServerStatusModel): Markup {
  return xml`<serverstatus>${fields(m).map(
    ([k, v]) => xml`
  <${trusted(k)}>${String(v)}</${trusted(k)}>`,
  )}
</serverstatus>`;
}

/** Numbers as JSON numbers (`.0813` → 0.0813); names and times as strings. */
function statusJson(m: ServerStatusModel): unknown {
  return Object.fromEntries(
    fields(m).map(([k, v]) => [
      k,
      typeof v === 'string' && /^-?[0-9.]+(e[+-][0-9]+)?$/.test(v) ? Number(v) : v,
    ]),
  );
}

export const serverStatusView: View<ServerStatusModel> = {
  html: statusHtml,
  xml: statusXml,
  json: statusJson,
};
