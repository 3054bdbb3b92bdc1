import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createErrorLog, logProcessWarnings, processWarningMessage } from './error-log.ts';
import { runInRequest } from './request-scope.ts';
import type { LogSink } from '../sink/sink.ts';

const HERE = fileURLToPath(import.meta.url);

test('a process warning names its code, and the file and line Node’s stack gives', () => {
  const w = Object.assign(new Error('Buffer() is deprecated'), {
    name: 'DeprecationWarning',
    code: 'DEP0005',
  });
  const line = Number(/process-warning\.test\.ts:(\d+)/.exec(w.stack ?? '')?.[1]);
  assert.equal(
    processWarningMessage(w),
    `DeprecationWarning [DEP0005]: Buffer() is deprecated in ${HERE} on line ${line}`,
  );
  const bare = Object.assign(new Error('no stack'), { name: 'Warning' });
  bare.stack = 'Warning: no stack';
  assert.equal(processWarningMessage(bare), 'Warning: no stack');
});

test('a process warning raised inside a request carries its client and Referer', async () => {
  const lines: string[] = [];
  const log = createErrorLog({ write: (l: string) => void lines.push(l) } as unknown as LogSink);
  const stop = logProcessWarnings(log);
  const raw = {
    socket: { remoteAddress: '192.0.2.9', remotePort: 4711 },
    rawHeaders: ['Referer', 'http://example.com/'],
  } as unknown as IncomingMessage;
  try {
    const emitted = new Promise((resolve) => process.once('warning', resolve));
    runInRequest(raw, () => process.emitWarning('inside', { code: 'SHELFMARK_TEST' }));
    await emitted;
    const outside = new Promise((resolve) => process.once('warning', resolve));
    process.emitWarning('outside', { code: 'SHELFMARK_TEST' });
    await outside;
  } finally {
    stop();
  }
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(
    lines[0]!,
    /\[node:warn\] \[pid \d+:tid \d+\] \[client 192\.0\.2\.9:4711\] Warning \[SHELFMARK_TEST\]: inside in .*process-warning\.test\.ts on line \d+, referer: http:\/\/example\.com\/$/,
  );
  assert.match(lines[1]!, /\[node:warn\] \[pid \d+:tid \d+\] Warning \[SHELFMARK_TEST\]: outside in /);
});
