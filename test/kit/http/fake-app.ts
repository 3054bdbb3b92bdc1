// A tiny application on the layer, for the layer's own tests (not used in production).
import type { FastifyInstance } from 'fastify';
import { createResourceApp } from '../../../src/http/app/create-app.ts';
import type { ResourceAppOptions } from '../../../src/http/app/options.ts';
import type { Outcome, Representation, ResourceDefinition, View } from '../../../src/http/resource/types.ts';
import { HttpError } from '../../../src/http/errors/http-error.ts';
import { html, xml } from '../../../src/http/representation/markup.ts';

export interface FakePerson {
  readonly slug: string;
  readonly name: string;
}

const personView: View<FakePerson> = {
  html: (p, ctx) =>
    html`<!DOCTYPE html>
      <html lang="${ctx.lang}">
        <title>${p.name}</title
        ><a href="${ctx.links.relative(`/personen/${p.slug}`)}">${p.name}</a>
      </html>`,
  xml: (p, ctx) =>
    xml`<person ref="${ctx.links.absolute(`/personen/${p.slug}`)}"><name>${p.name}</name></person>`,
  json: (p, ctx) => ({ name: p.name, url: ctx.links.absolute(`/personen/${p.slug}`) }),
};

export const LAST_MODIFIED = new Date('2024-05-01T10:00:00Z');

function personRep(p: FakePerson): Representation<FakePerson> {
  return {
    model: p,
    view: personView,
    canonicalPath: `/personen/${p.slug}`,
    lastModified: LAST_MODIFIED,
    schema: 'person',
  };
}

const found = (rep: Representation<FakePerson>): Outcome => ({ type: 'representation', representation: rep });

const person: ResourceDefinition = {
  name: 'person',
  path: '/person',
  methods: {
    async GET(ctx) {
      const slug = ctx.query.get('slug') ?? (ctx.query.get('id') === '1' ? 'goethe' : '');
      if (slug === 'goethe')
        return found(personRep({ slug, name: ctx.lang === 'en' ? 'Goethe (en)' : 'Goethe' }));
      if (slug === 'goethe-alt') return { type: 'redirect', status: 301, path: '/personen/goethe' };
      if (slug === 'schiller') throw new HttpError('SHELFMARK_GONE', { detail: 'Schiller was removed.' });
      if (slug === 'boom') throw new TypeError('secret database password leaked here');
      throw new HttpError('SHELFMARK_NOT_FOUND', { detail: `No person ${slug}.` });
    },
    async PUT(ctx) {
      if (ctx.query.get('slug') === 'invalid') {
        throw new HttpError('SHELFMARK_VALIDATION_FAILED', {
          extensions: { errors: [{ field: 'name', detail: 'required' }] },
        });
      }
      return found(personRep({ slug: ctx.query.get('slug') ?? '', name: 'Replaced' }));
    },
    async DELETE() {
      return { type: 'empty', status: 204 };
    },
  },
};

const persons: ResourceDefinition = {
  name: 'persons',
  path: '/personen',
  methods: {
    async GET(ctx) {
      const list: FakePerson[] = [{ slug: 'goethe', name: 'Goethe' }];
      const q = ctx.query.get('q');
      return {
        type: 'representation',
        representation: {
          model: list[0] as FakePerson,
          view: personView,
          canonicalPath: q === null ? '/personen' : `/personen?q=${encodeURIComponent(q)}`,
          links: [{ rel: 'next', path: '/personen?nach=goethe' }],
        },
      };
    },
    async POST() {
      return {
        type: 'representation',
        status: 201,
        representation: personRep({ slug: 'neu', name: 'Neu' }),
        location: '/personen/neu',
      };
    },
  },
};

const home: ResourceDefinition = {
  name: 'home',
  path: '/',
  methods: { GET: async () => found({ ...personRep({ slug: 'home', name: 'Home' }), canonicalPath: '/' }) },
};

export function fakeApp(overrides: Partial<ResourceAppOptions> = {}): Promise<FastifyInstance> {
  return createResourceApp({
    baseUrl: 'https://library.example/katalog',
    trustProxy: ['127.0.0.1'],
    resources: [home, persons, person],
    rewrites: [{ pattern: /^\/personen\/([^/.]+)$/, target: '/person?slug=$1' }],
    passthrough: ['/static/'],
    displayErrors: false,
    configure(app) {
      app.get('/static/style.css', (_req, reply) => reply.type('text/css').send('body{}'));
    },
    ...overrides,
  });
}
