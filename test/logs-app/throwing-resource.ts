// A resource whose handler fails the way a bug in application code does (a TypeError), served
// by the real app through startServer's extraResources seam only in these tests.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ResourceDefinition } from '../../src/http/resource/types.ts';
import { html } from '../../src/http/representation/markup.ts';

export const THROWING_PATH = '/test-fehler';
export const THROWING_FILE = fileURLToPath(import.meta.url);
export const THROWING_MESSAGE = 'Cannot read "shelf" of undefined';

/** The line of the `throw` (the one marked below), counted from this file's source. */
export const THROWING_LINE =
  fs
    .readFileSync(THROWING_FILE, 'utf8')
    .split('\n')
    .findIndex((l) => l.endsWith('// <- the throw')) + 1;

export const throwingResource: ResourceDefinition = {
  name: 'test-fehler',
  path: THROWING_PATH,
  methods: {
    async GET() {
      throw new TypeError(THROWING_MESSAGE); // <- the throw
    },
  },
};

/** Emits a Node process warning, then answers 204 (docs/logs.md: process warnings → `warn`). */
export const warningResource: ResourceDefinition = {
  name: 'test-warnung',
  path: '/test-warnung',
  methods: {
    async GET() {
      process.emitWarning('the card index is nearly full', { code: 'SHELFMARK_TEST_WARNING' });
      return { type: 'empty', status: 204 };
    },
  },
};

/** Answers 204 after `SLOW_MS`: slower than a test server's slow-request threshold. */
export const SLOW_MS = 50;
export const slowResource: ResourceDefinition = {
  name: 'test-langsam',
  path: '/test-langsam',
  methods: {
    async GET() {
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      return { type: 'empty', status: 204 };
    },
  },
};

/**
 * The same for a cacheable resource's 200: an anonymous GET of it goes through the
 * representation cache and is kept for the pipeline's early exit (ADR 0071), and is warned
 * about as every answer is.
 */
export const slowCacheableResource: ResourceDefinition = {
  name: 'test-langsam-gerendert',
  path: '/test-langsam-gerendert',
  cacheable: true,
  methods: {
    async GET() {
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      const view = { html: () => html`<p>langsam</p>`, xml: () => html`<langsam/>`, json: () => ({}) };
      const representation = { model: {}, view, canonicalPath: '/test-langsam-gerendert' };
      return { type: 'representation', representation };
    },
  },
};
