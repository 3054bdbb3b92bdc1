// OAI-PMH arguments, dates and resumption tokens as pure functions (ADR 0081); the protocol's
// answers over HTTP are tested in test/oai/.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { datestamp, endOfSecond, parseDateArgument } from './dates.ts';
import { parseRequest, readArguments } from './request.ts';
import { decodeToken, encodeToken, type ListPosition } from './token.ts';

const parse = (query: string) => parseRequest(readArguments(query)!);
const codes = (query: string) => {
  const result = parse(query);
  return 'errors' in result ? result.errors.map((e) => e.code) : [];
};

describe('dates', () => {
  test('a day spans to the next day, a second to the next second; both as stored stamps', () => {
    assert.deepEqual(parseDateArgument('2026-02-28'), {
      granularity: 'day',
      start: '2026-02-28T00:00:00.000Z',
      end: '2026-03-01T00:00:00.000Z',
    });
    assert.deepEqual(parseDateArgument('2026-02-28T23:59:59Z'), {
      granularity: 'second',
      start: '2026-02-28T23:59:59.000Z',
      end: '2026-03-01T00:00:00.000Z',
    });
  });

  test('what is not a real date of either granularity is refused', () => {
    for (const bad of ['2026-02-29', '2026-2-1', '2026-01-01T00:00Z', '2026-01-01T24:00:00Z', '20260101', ''])
      assert.equal(parseDateArgument(bad), null, bad);
  });

  test('datestamps are the second a stamp falls in', () => {
    assert.equal(datestamp('2026-01-02T03:04:05.999Z'), '2026-01-02T03:04:05Z');
    assert.equal(endOfSecond(new Date('2026-01-02T03:04:05.999Z')), '2026-01-02T03:04:06.000Z');
  });
});

describe('arguments', () => {
  test('repeated and unknown names, and malformed percent-encoding', () => {
    assert.deepEqual(
      [...readArguments('verb=A&verb=B&x')!],
      [
        ['verb', ['A', 'B']],
        ['x', ['']],
      ],
    );
    assert.equal(readArguments('verb=%E0%A4%A'), null);
  });

  test('each verb takes its own arguments; resumptionToken comes alone', () => {
    assert.deepEqual(codes('verb=Identify'), []);
    assert.deepEqual(codes('verb=ListRecords&resumptionToken=x'), []);
    assert.deepEqual(codes('verb=ListRecords&resumptionToken=x&from=2026-01-01'), ['badArgument']);
    assert.deepEqual(codes('verb=ListIdentifiers&metadataPrefix=oai_dc&identifier=x'), ['badArgument']);
    assert.deepEqual(codes('verb=GetRecord&metadataPrefix=oai_dc'), ['badArgument']);
    assert.deepEqual(codes('verb=ListMetadataFormats&identifier=a&identifier=b'), ['badArgument']);
    assert.deepEqual(codes('verb=Nope'), ['badVerb']);
    assert.deepEqual(codes('metadataPrefix=oai_dc'), ['badVerb']);
  });

  test('from and until: same granularity, from not after until', () => {
    assert.deepEqual(codes('verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01&until=2026-01-01'), []);
    assert.deepEqual(codes('verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-02&until=2026-01-01'), [
      'badArgument',
    ]);
    assert.deepEqual(
      codes('verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01&until=2026-01-02T00:00:00Z'),
      ['badArgument'],
    );
  });
});

describe('resumption tokens', () => {
  const position: ListPosition = {
    verb: 'ListRecords',
    metadataPrefix: 'marc21',
    from: null,
    until: '2026-01-01T00:00:01.000Z',
    after: { stamp: '2025-12-31T10:00:00.123Z', id: 42 },
    cursor: 100,
    total: 306,
  };

  test('a token carries the whole position', () => {
    assert.deepEqual(decodeToken(encodeToken(position)), position);
  });

  test('anything else is no token', () => {
    const json = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const body = JSON.parse(Buffer.from(encodeToken(position), 'base64url').toString()) as Record<
      string,
      unknown
    >;
    for (const bad of [
      '',
      'not a token',
      json([]),
      json({ ...body, extra: 1 }),
      json({ ...body, v: 'GetRecord' }),
      json({ ...body, u: '2026-01-01' }),
      json({ ...body, i: -1 }),
      json({ ...body, c: 1.5 }),
      json({ ...body, m: 'a b' }),
    ])
      assert.equal(decodeToken(bad), null, bad);
  });
});
