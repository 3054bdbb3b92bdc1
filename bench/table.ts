// Markdown tables of measurements.
import type { Measurement } from './measure.ts';

const fixed = (n: number | undefined, digits: number): string =>
  n === undefined ? 'n/a' : n.toFixed(digits);
const whole = (n: number): string => Math.round(n).toLocaleString('en');

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A table of measurements; `label` names the first column's group (e.g. the database). */
export function measurementTable(rows: readonly Measurement[], firstColumn = 'case'): string {
  const lines = [
    row([firstColumn, 'URL', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'requests', 'non-2xx/errors']),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const m of rows) {
    const l = m.load;
    lines.push(
      row([
        m.name,
        '`' + (m.path.length > 60 ? m.path.slice(0, 57) + '…' : m.path) + '`',
        whole(l.requestsPerSecond),
        fixed(l.p50Ms, 2),
        fixed(l.p99Ms, 2),
        fixed(m.cpuUsPerRequest, 0),
        whole(l.requests),
        `${l.non2xx}/${l.errors}`,
      ]),
    );
  }
  return lines.join('\n');
}

/** CPU per request of `on` minus `off`, and its share of `on`. */
export function costLine(what: string, on: Measurement, off: Measurement): string {
  if (on.cpuUsPerRequest === undefined || off.cpuUsPerRequest === undefined) return `${what}: n/a`;
  const delta = on.cpuUsPerRequest - off.cpuUsPerRequest;
  const share = (100 * delta) / on.cpuUsPerRequest;
  return `${what}: ${delta.toFixed(1)} µs CPU per request (${share.toFixed(1)} % of the request)`;
}
