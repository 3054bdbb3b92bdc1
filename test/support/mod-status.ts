// A reader of Apache mod_status's machine-readable `?auto` text, written to httpd 2.4's format
// (modules/generators/mod_status.c) and to what its best-known reader, Prometheus'
// apache_exporter, demands: the first line is the host name; every other line is `Key: value`;
// the numeric keys parse as floating-point numbers (Go's ParseFloat: `.0813` and `1.5e+06` are
// numbers) or the whole scrape fails; ServerVersion is `Name/major.minor.patch …` (the exporter
// splits it so, and fails otherwise); the Scoreboard uses only httpd's slot characters, and the
// worker counts agree with it. Strict: anything else throws, naming the line.

export interface ModStatus {
  readonly host: string;
  readonly fields: ReadonlyMap<string, string>;
  /** A numeric key's value. */
  number(key: string): number;
  readonly scoreboard: string;
}

const NUMERIC = new Set([
  'ParentServerConfigGeneration',
  'ParentServerMPMGeneration',
  'ServerUptimeSeconds',
  'Load1',
  'Load5',
  'Load15',
  'Total Accesses',
  'Total kBytes',
  'Total Duration',
  'CPUUser',
  'CPUSystem',
  'CPUChildrenUser',
  'CPUChildrenSystem',
  'CPULoad',
  'Uptime',
  'ReqPerSec',
  'BytesPerSec',
  'BytesPerReq',
  'DurationPerReq',
  'BusyWorkers',
  'GracefulWorkers',
  'IdleWorkers',
  'Processes',
  'Stopping',
  'ConnsTotal',
  'ConnsAsyncWriting',
  'ConnsAsyncKeepAlive',
  'ConnsAsyncClosing',
]);
/** The keys every prefork ?auto report has (ExtendedStatus on, as it is by default since 2.3.6). */
const REQUIRED = [
  'ServerVersion',
  'ServerMPM',
  'Total Accesses',
  'Total kBytes',
  'Uptime',
  'BusyWorkers',
  'IdleWorkers',
  'Scoreboard',
];
const INTEGER = new Set([
  'Total Accesses',
  'Total kBytes',
  'Total Duration',
  'Uptime',
  'BusyWorkers',
  'IdleWorkers',
]);
// What Go's strconv.ParseFloat accepts in decimal form, which is what mod_status writes.
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SCOREBOARD = /^[_SRWKDCLGI.]+$/;

export function parseModStatus(text: string): ModStatus {
  if (!text.endsWith('\n')) throw new Error('mod_status text ends with a line break');
  const lines = text.slice(0, -1).split('\n');
  const host = lines.shift() ?? '';
  if (!/^[\x21-\x7e]+$/.test(host) || host.includes(': '))
    throw new Error(`first line must be the host name: ${JSON.stringify(host)}`);
  const fields = new Map<string, string>();
  for (const line of lines) {
    const m = /^([A-Za-z][A-Za-z0-9 ]*[A-Za-z0-9]): ?(.*)$/.exec(line);
    if (!m) throw new Error(`not a "Key: value" line: ${JSON.stringify(line)}`);
    const [, key, value] = m as unknown as [string, string, string];
    if (fields.has(key)) throw new Error(`key twice: ${key}`);
    if (NUMERIC.has(key) && !FLOAT.test(value))
      throw new Error(`${key} is not a number: ${JSON.stringify(value)}`);
    if (INTEGER.has(key) && !/^\d+$/.test(value)) throw new Error(`${key} is not a whole number: ${value}`);
    fields.set(key, value);
  }
  for (const key of REQUIRED) if (!fields.has(key)) throw new Error(`missing ${key}`);
  if (!/^[^/\s]+\/\d+\.\d+\.\d+(?:\s|$)/.test(fields.get('ServerVersion')!))
    throw new Error(`ServerVersion is not Name/x.y.z: ${fields.get('ServerVersion')}`);
  const scoreboard = fields.get('Scoreboard')!;
  if (!SCOREBOARD.test(scoreboard))
    throw new Error(`Scoreboard has a character httpd does not use: ${scoreboard}`);
  const count = (c: string) => [...scoreboard].filter((x) => x === c).length;
  const number = (key: string) => {
    const v = fields.get(key);
    if (v === undefined || !NUMERIC.has(key)) throw new Error(`no numeric ${key}`);
    return Number(v);
  };
  // httpd counts as idle the slots waiting for a connection, as busy the others but starting,
  // gracefully finishing, idle cleanup and open.
  if (number('IdleWorkers') !== count('_')) throw new Error(`IdleWorkers ≠ "_" in ${scoreboard}`);
  const busy = [...scoreboard].filter((c) => 'RWKDCL'.includes(c)).length;
  if (number('BusyWorkers') !== busy) throw new Error(`BusyWorkers ≠ busy slots in ${scoreboard}`);
  return { host, fields, number, scoreboard };
}
