// The generic write flow with a resource of its own (persons and works test their parts in their
// write.test.ts): one lock scope for every method (ADR 0023), and which store errors become 409.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { html } from '../../http/representation/markup.ts';
import type { Outcome, View } from '../../http/resource/types.ts';
import { ConflictError } from '../../storage/index.ts';
import type { Lookup } from '../model.ts';
import { HttpError } from '../shared/index.ts';
import { writeMethods, type Stored, type WritableResource, type WriteMethods } from './flow.ts';

function ctxFor(method: keyof WriteMethods, opts: { query?: string; body?: unknown } = {}) {
  return fakeContext({ user: STAFF, format: 'json', ...opts, method });
}
import { fakeContext } from '../../../test/kit/catalogue/fakes.ts';
import { STAFF } from '../../../test/kit/catalogue/write-support.ts';

interface Thing extends Stored {
  readonly name: string;
}

/** The flow never renders; the view only has to exist. */
const VIEW: View<unknown> = { html: () => html``, xml: () => html`<ding/>`, json: () => ({}) };

const THING: Thing = { id: 1, slug: 'ding', name: 'Ding', updatedAt: new Date('2026-01-01T00:00:00Z') };

/** A settable gate: the store's lookups wait at it while `closed`. */
function gate() {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

function thingResource(
  overrides: Partial<WritableResource<Thing, { name: string }>> = {},
  createError?: unknown,
) {
  const events: string[] = [];
  const lookupGate = gate();
  const resource: WritableResource<Thing, { name: string }> = {
    store: {
      async bySlug(slug): Promise<Lookup<Thing>> {
        events.push(`lookup ${slug}`);
        await lookupGate.opened;
        return slug === THING.slug ? { found: THING } : null;
      },
      async byId() {
        return null;
      },
      async create(input) {
        events.push('create');
        if (createError !== undefined) throw createError;
        return { ...THING, id: 2, slug: 'slug' in input ? input.slug : 'neu', name: input.name };
      },
      async replace(_id, input) {
        events.push('replace');
        return { ...THING, name: input.name };
      },
      async delete() {
        events.push('delete');
        return true;
      },
    },
    collection: '/dinge',
    pathOf: (slug) => `/dinge/${slug}`,
    representationOf: (found) => ({
      model: found,
      view: VIEW,
      canonicalPath: `/dinge/${found.slug}`,
    }),
    async readInput(ctx) {
      events.push('read input');
      const name = (ctx.body as { name?: unknown }).name;
      return typeof name === 'string'
        ? { ok: true, input: { name } }
        : { ok: false, problems: [{ field: 'name', code: 'required', message: 'is required' }] };
    },
    fieldNames: ['name'],
    formPage: ({ canonicalPath }) => ({ model: {}, view: VIEW, canonicalPath }),
    ...overrides,
  };
  return { methods: writeMethods(resource), events, openLookups: lookupGate.open };
}

async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function call(methods: WriteMethods, method: keyof WriteMethods, query: string, body: unknown) {
  try {
    return await methods[method](ctxFor(method, { query, body }));
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

test('a POST reads its body only after a running PUT has written: one lock over the whole flow', async () => {
  const { methods, events, openLookups } = thingResource();
  const put = call(methods, 'PUT', 'slug=ding', { name: 'Anders' });
  await settle();
  const post = call(methods, 'POST', '', { name: 'Neu' });
  await settle();
  assert.deepEqual(events, ['lookup ding'], 'the POST waits for the PUT, its body not yet read');
  openLookups();
  const [putDone, postDone] = (await Promise.all([put, post])) as Outcome[];
  assert.deepEqual(events, ['lookup ding', 'read input', 'replace', 'read input', 'create']);
  assert.equal(putDone?.type === 'representation' && putDone.status, 200);
  assert.equal(postDone?.type === 'representation' && postDone.status, 201);
});

test('lockEach: writes of different items overlap, a second write of the same item waits (ADR 0104)', async () => {
  const { methods, events, openLookups } = thingResource({ lockEach: true });
  const first = call(methods, 'PUT', 'slug=ding', { name: 'Eins' });
  const other = call(methods, 'PUT', 'slug=anderes', { name: 'Zwei' });
  const same = call(methods, 'PUT', 'slug=ding', { name: 'Drei' });
  await settle();
  assert.deepEqual(events, ['lookup ding', 'lookup anderes'], 'the second write of ding waits');
  openLookups();
  await Promise.all([first, other, same]);
  assert.equal(events.filter((e) => e === 'lookup ding').length, 2);
});

test('a taken slug is 409 where the client chose it (PUT); a POST passes the store error on', async () => {
  const taken = new ConflictError('taken', 'dinge.slug');
  const { methods, openLookups } = thingResource({}, taken);
  openLookups();
  const put = await call(methods, 'PUT', 'slug=frei', { name: 'Frei' });
  assert.ok(put instanceof HttpError);
  assert.equal(put.status, 409);
  await assert.rejects(methods.POST(ctxFor('POST', { body: { name: 'Neu' } })), (e: unknown) => e === taken);
});

test("a resource's refusal turns its own store errors into its answer, on POST and PUT", async () => {
  const vanished = new Error('reference vanished');
  const refusal = (error: unknown) =>
    error === vanished ? new HttpError('SHELFMARK_VALIDATION_FAILED') : undefined;
  const { methods, openLookups } = thingResource({ refusal }, vanished);
  openLookups();
  for (const [method, query] of [
    ['POST', ''],
    ['PUT', 'slug=frei'],
  ] as const) {
    const result = await call(methods, method, query, { name: 'X' });
    assert.ok(result instanceof HttpError, method);
    assert.equal(result.status, 422, method);
  }
});

test('PATCH: 428 without If-Match when preconditions are required; else the merged body is read', async () => {
  const { methods, events, openLookups } = thingResource({
    async readInput(ctx) {
      events.push(`read ${JSON.stringify(ctx.body)}`);
      return { ok: true, input: { name: String((ctx.body as { name?: string }).name) } };
    },
  });
  openLookups();
  const body = JSON.parse('{"name":null,"neu":1}') as unknown;
  const required = await methods
    .PATCH(
      fakeContext({
        user: STAFF,
        format: 'json',
        method: 'PATCH',
        query: 'slug=ding',
        body,
        requirePreconditions: true,
      }),
    )
    .catch((error: unknown) => error);
  assert.ok(required instanceof HttpError);
  assert.equal(required.status, 428);
  assert.ok(!events.some((e) => e.startsWith('read')), 'nothing read or written');
  const done = await methods.PATCH(ctxFor('PATCH', { query: 'slug=ding', body }));
  assert.equal(done.type === 'representation' && done.status, 200);
  // The thing's JSON view is {}: the merged document is the patch without its nulls.
  assert.deepEqual(events.slice(-2), ['read {"neu":1}', 'replace']);
});
