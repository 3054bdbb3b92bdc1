import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBasic, type BasicCredentials } from './basic.ts';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

test('parseBasic', async (t) => {
  const cases: [string, string | undefined, BasicCredentials][] = [
    ['absent', undefined, { kind: 'absent' }],
    ['other scheme', 'Bearer abc', { kind: 'absent' }],
    [
      'simple (Apache case auth_ok)',
      'Basic YWxpY2U6d29uZGVybGFuZA==',
      { kind: 'credentials', username: 'alice', password: 'wonderland' },
    ],
    [
      'colon in password',
      `Basic ${b64('alice:a:b::c')}`,
      { kind: 'credentials', username: 'alice', password: 'a:b::c' },
    ],
    [
      'scheme case and spacing',
      `bAsIc   ${b64('a:b')} `,
      { kind: 'credentials', username: 'a', password: 'b' },
    ],
    [
      'UTF-8',
      `Basic ${b64('jürgen:pässwörd€')}`,
      { kind: 'credentials', username: 'jürgen', password: 'pässwörd€' },
    ],
    [
      'space in user (auth_space_user)',
      'Basic Ym9iIHNtaXRoOnB3',
      { kind: 'credentials', username: 'bob smith', password: 'pw' },
    ],
    ['empty user (auth_empty_user)', 'Basic OnB3', { kind: 'credentials', username: '', password: 'pw' }],
    ['empty password', `Basic ${b64('alice:')}`, { kind: 'credentials', username: 'alice', password: '' }],
    ['no colon: whole text is the user', `Basic ${b64('alice')}`, { kind: 'malformed', logUser: 'alice' }],
    ['not base64', 'Basic !!!', { kind: 'malformed', logUser: undefined }],
    ['no credentials', 'Basic', { kind: 'malformed', logUser: undefined }],
    ['impossible length', 'Basic YWxpY2U6d', { kind: 'malformed', logUser: undefined }],
    [
      'invalid UTF-8',
      `Basic ${b64(Buffer.from([0x61, 0xff, 0x3a, 0x62]))}`,
      { kind: 'malformed', logUser: 'a\ufffd' },
    ],
    ['control character', `Basic ${b64('al\nice:pw')}`, { kind: 'malformed', logUser: 'al\nice' }],
  ];
  for (const [name, header, expected] of cases)
    await t.test(name, () => assert.deepEqual(parseBasic(header), expected));
});
