// The operators' tools the logs must satisfy: grok (logstash), GoAccess, fail2ban's prefix.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APACHE_DIR } from '../support/shared.ts';

const APACHE = APACHE_DIR;

export const FAIL2BAN_PREFIX = /\[(:?error|\S+:\S+)\]( \[pid \d+(:\S+ \d+)?\])? \[client [0-9a-fA-F.:]+(:\d{1,5})?\]/;

function tmpFile(lines: string[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-tool-')), 'log');
  fs.writeFileSync(file, lines.map((l) => l + '\n').join(''), 'latin1');
  return file;
}

/** Runs grok-check.mjs; returns its output (status 0 iff every line matched). */
export function grok(pattern: string, lines: string[]): { ok: boolean; output: string } {
  const r = spawnSync(process.execPath, [`${APACHE}/grok-check.mjs`, `${APACHE}/grok/legacy`, pattern, tmpFile(lines), '--anchored'], {
    encoding: 'latin1',
  });
  return { ok: r.status === 0, output: r.stdout + r.stderr };
}

export function goaccess(lines: string[], format = 'COMBINED'): { ok: boolean; output: string } {
  const r = spawnSync('sh', [`${APACHE}/check-goaccess.sh`, tmpFile(lines), format], { encoding: 'latin1' });
  return { ok: r.status === 0, output: r.stdout + r.stderr };
}
