// eslint.config.js forbids getters and setters in object literals of production code (ADR 0117):
// a literal made per request with accessors kept the request's young objects alive through
// every scavenge. Probe files linted as text (nothing is written).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { probeReports } from '../support/lint-probe.ts';

const RULE = 'no-restricted-syntax';
const reports = async (file: string, code: string) =>
  (await probeReports(file, code, [RULE])).map((r) => r.slice(RULE.length + 2));

const literal = `export function make(n: number) {
  return { get twice() { return n * 2; }, set twice(v: number) { n = v / 2; } };
}
`;
const klass = `export class Made {
  #n: number;
  constructor(n: number) { this.#n = n; }
  get twice(): number { return this.#n * 2; }
}
export const plain = { twice: 2, double: (n: number) => n * 2 };
`;

test('a getter or setter in an object literal of production code is refused', async () => {
  const found = await reports('src/http/app/probe.ts', literal);
  assert.equal(found.length, 2, found.join('; '));
  for (const message of found) assert.match(message, /No getter or setter in an object literal \(ADR 0117\)/);
});

test('a class’s accessors and a literal’s data properties and methods pass; tests may use either', async () => {
  assert.deepEqual(await reports('src/catalogue/works/probe.ts', klass), []);
  assert.deepEqual(await reports('src/http/app/probe.test.ts', literal), []);
});
