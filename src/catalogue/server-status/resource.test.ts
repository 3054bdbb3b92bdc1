import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError } from '../shared/index.ts';
import { fakeContext, render, renderText } from '../../../test/kit/catalogue/fakes.ts';
import { MEMBER, SAMPLE_STATUS, STAFF } from '../../../test/kit/catalogue/server-status.ts';
import { jsonErrors, xmlErrors } from '../../../test/kit/catalogue/validate.ts';
import { serverStatusResource } from './resource.ts';

const resource = serverStatusResource({ serverStatus: async () => SAMPLE_STATUS });
const get = resource.methods.GET!;

test('/server-status is for staff: anonymous clients and members get 403', async () => {
  for (const user of [null, MEMBER]) {
    await assert.rejects(
      get(fakeContext({ user })),
      (e: unknown) => e instanceof HttpError && e.status === 403,
    );
  }
});

test('/server-status in JSON: the ?auto keys without spaces, numbers as numbers, summed over every slot', async () => {
  const ctx = fakeContext({ user: STAFF, format: 'json' });
  const json = render(await get(ctx), 'json', ctx) as Record<string, unknown>;
  assert.equal(json.TotalAccesses, 120);
  assert.equal(json.TotalKBytes, Math.floor((100 * 2048 + 4096) / 1024));
  assert.equal(json.ServerUptimeSeconds, 3600);
  assert.equal(json.ParentServerMPMGeneration, 1);
  assert.equal(json.Scoreboard, 'W_S');
  assert.equal(json.BusyWorkers, 1);
  assert.equal(json.IdleWorkers, 1);
  assert.equal(typeof json.ReqPerSec, 'number');
});

test('/server-status in XML and HTML', async () => {
  const xml = renderText(await get(fakeContext({ user: STAFF, format: 'xml' })), 'xml');
  assert.match(
    xml,
    /<serverstatus>[\s\S]*<TotalAccesses>120<\/TotalAccesses>[\s\S]*<Scoreboard>W_S<\/Scoreboard>/,
  );
  const en = fakeContext({ user: STAFF, lang: 'en' });
  const html = render(await get(en), 'html', en) as string;
  assert.match(html, /<h1>Server status<\/h1>/);
  assert.match(html, /<pre>W_S<\/pre>/);
  assert.match(html, /href="\/server-status\?auto"/);
});

test('/server-status JSON and XML are valid against /schema/server-status.json and .xsd', async () => {
  const json = fakeContext({ user: STAFF, format: 'json' });
  const outcome = await get(json);
  assert.equal(outcome.type === 'representation' && outcome.representation.schema, 'server-status');
  assert.equal(jsonErrors('server-status', render(outcome, 'json', json)), '');
  const xml = renderText(await get(fakeContext({ user: STAFF, format: 'xml' })), 'xml');
  assert.equal(await xmlErrors('server-status', xml.replace(/^<\?xml[^>]*>\n/, '')), '');
  // The schemas can refuse: a count that is not a number, a missing key.
  assert.notEqual(
    jsonErrors('server-status', { ...(render(outcome, 'json', json) as object), TotalAccesses: 'x' }),
    '',
  );
  assert.notEqual(await xmlErrors('server-status', xml.replace(/<Scoreboard>.*<\/Scoreboard>/, '')), '');
});

test('/server-status in German: the times in German (Intl with the page language), ISO in datetime', async () => {
  const de = fakeContext({ user: STAFF, lang: 'de' });
  const html = render(await get(de), 'html', de) as string;
  const now = new Date(SAMPLE_STATUS.nowMs);
  const german = new Intl.DateTimeFormat('de-DE', { dateStyle: 'long', timeZone: 'UTC' }).format(now);
  assert.match(html, new RegExp(`<time datetime="${now.toISOString()}">${german}`));
  assert.doesNotMatch(html, /(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),/);
});
