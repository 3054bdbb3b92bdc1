import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkOrigin, type OriginHeaders, type OriginMode } from './origin.ts';

const ALLOWED = ['https://library.example'];

test('origin check', async (t) => {
  const cases: [string, OriginHeaders, OriginMode, boolean][] = [
    ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }, 'strict', true],
    ['Sec-Fetch-Site none (typed by the user)', { 'sec-fetch-site': 'none' }, 'strict', true],
    [
      'Sec-Fetch-Site cross-site',
      { 'sec-fetch-site': 'cross-site', origin: 'https://library.example' },
      'strict',
      false,
    ],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }, 'strict', false],
    ['cross-site even for Basic', { 'sec-fetch-site': 'cross-site' }, 'lenient', false],
    ['Origin matches', { origin: 'https://library.example' }, 'strict', true],
    ['Origin matches with default port', { origin: 'https://library.example:443' }, 'strict', true],
    ['Origin other host', { origin: 'https://evil.example' }, 'strict', false],
    ['Origin other scheme', { origin: 'http://library.example' }, 'strict', false],
    ['Origin other port', { origin: 'https://library.example:8443' }, 'strict', false],
    ['Origin null', { origin: 'null' }, 'strict', false],
    [
      'Origin beats Referer',
      { origin: 'https://evil.example', referer: 'https://library.example/x' },
      'strict',
      false,
    ],
    ['Referer same origin', { referer: 'https://library.example/katalog/werke' }, 'strict', true],
    ['Referer other origin', { referer: 'https://evil.example/library.example' }, 'strict', false],
    ['Referer garbage', { referer: 'not a url' }, 'strict', false],
    ['missing origin: strict refuses', {}, 'strict', false],
    ['missing origin: lenient (Basic) accepts', {}, 'lenient', true],
    ['Origin other host: lenient refuses', { origin: 'https://evil.example' }, 'lenient', false],
  ];
  for (const [name, headers, mode, ok] of cases) {
    await t.test(name, () => assert.equal(checkOrigin(headers, ALLOWED, mode).ok, ok));
  }
});
