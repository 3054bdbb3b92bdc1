import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addVary, type HeaderTarget } from './layer.ts';

/** Just the headers of a reply, as Fastify keeps them (lower-case names). */
function replyWith(vary?: string | string[]): HeaderTarget & { readonly headers: Record<string, unknown> } {
  const headers: Record<string, string | string[] | number | undefined> = { vary };
  return {
    headers,
    statusCode: 200,
    header(name, value) {
      headers[name.toLowerCase()] = value;
    },
    getHeader: (name) => headers[name.toLowerCase()],
    hasHeader: (name) => headers[name.toLowerCase()] !== undefined,
    removeHeader(name) {
      delete headers[name.toLowerCase()];
    },
    getHeaders: () => headers,
  };
}

test('addVary adds each name once, in any case and spacing, and nothing after *', () => {
  const cases: [string | string[] | undefined, string[], string | string[] | undefined][] = [
    [undefined, ['Cookie', 'Authorization'], 'Cookie, Authorization'],
    ['', ['Cookie'], 'Cookie'],
    ['Accept', ['Cookie', 'Authorization'], 'Accept, Cookie, Authorization'],
    ['accept,cookie', ['Cookie', 'Authorization'], 'accept,cookie, Authorization'],
    ['Accept ,\tCOOKIE , Authorization', ['Cookie', 'Authorization'], 'Accept ,\tCOOKIE , Authorization'],
    // A name inside another is not that name.
    ['Accept-Encoding', ['Accept'], 'Accept-Encoding, Accept'],
    ['X-Accept', ['Accept'], 'X-Accept, Accept'],
    ['Accept', ['Accept-Encoding'], 'Accept, Accept-Encoding'],
    ['*', ['Cookie'], '*'],
    ['Accept, *', ['Cookie'], 'Accept, *'],
    [['Accept', 'Origin'], ['Origin', 'Cookie'], 'Accept, Origin, Cookie'],
    ['Accept', [], 'Accept'],
  ];
  for (const [before, names, after] of cases) {
    const reply = replyWith(before);
    addVary(reply, ...names);
    assert.deepEqual(reply.headers.vary, after, `${JSON.stringify(before)} + ${names.join(' ')}`);
  }
});
