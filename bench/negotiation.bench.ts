// Hostile-header micro benchmark for the pure negotiation functions. Not a test: it prints
// timings. Run: node bench/negotiation.bench.ts
import { negotiateAccept } from '../src/http/negotiation/format.ts';
import { negotiateLanguage } from '../src/http/negotiation/language.ts';

const CHROME =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7';
// Node caps the whole header block at 16 KiB, so no single header can be larger.
const LIMIT = 16 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(LIMIT / unit.length)).slice(0, LIMIT);

const cases: [string, () => unknown][] = [
  ['Accept: Chrome', () => negotiateAccept(CHROME)],
  ['Accept: */*', () => negotiateAccept('*/*')],
  ['Accept: 16 KiB of ranges', () => negotiateAccept(fill('a/b;q=0.5,'))],
  ['Accept: 16 KiB of parameters', () => negotiateAccept('text/html' + fill(';a=b'))],
  ['Accept: 16 KiB of commas', () => negotiateAccept(fill(','))],
  ['Accept: 16 KiB quoted string', () => negotiateAccept('text/html;a="' + fill('\\"') + '"')],
  ['Accept: 16 KiB of spaces', () => negotiateAccept(fill(' ') + 'text/html')],
  ['Accept-Language: Firefox', () => negotiateLanguage('de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7')],
  ['Accept-Language: 16 KiB', () => negotiateLanguage(fill('en-x-aaaaaaaa;q=0.1,'))],
];

for (const [name, run] of cases) {
  for (let i = 0; i < 50; i++) run(); // warm up
  let iterations = 0;
  const start = performance.now();
  while (performance.now() - start < 300) {
    run();
    iterations++;
  }
  const micros = ((performance.now() - start) * 1000) / iterations;
  console.log(`${name.padEnd(34)} ${micros.toFixed(1).padStart(10)} µs/call  (${iterations} calls)`);
}
