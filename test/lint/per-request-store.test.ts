// Issue "One request path": everything the layer knows about a request lives in its
// RequestState, handed from stage to stage; nothing in src/ keeps per-request facts in a map
// keyed by the raw request, except the one the access log's %u reads (request-state.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src', import.meta.url));

function productionFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return productionFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

test('src/ keeps at most one map by IncomingMessage, the access log’s %u in request-state.ts', () => {
  const maps = productionFiles(src).flatMap((file) =>
    [
      ...fs
        .readFileSync(file, 'utf8')
        .matchAll(/new WeakMap<\s*IncomingMessage\b|new Map<\s*IncomingMessage\b/g),
    ].map(() => path.relative(src, file)),
  );
  assert.deepEqual(maps, [path.join('http', 'app', 'request-state.ts')]);
});
