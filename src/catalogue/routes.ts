// Plain Fastify routes outside the resource layer: schemas, generated portraits, stylesheet.
// They are static-like files with one representation each, so they skip negotiation; the paths
// are listed in `catalogueResources().passthrough` so the layer leaves them alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { prepareFixed, sendPrepared } from '../http/index.ts';
import type { CachedRepresentation } from '../http/index.ts';
import type { PersonStore } from './model.ts';
import { initialsOfName, initialsOfSlug, portraitSvg, silhouetteSvg } from './portraits/index.ts';
import { readSchema, SCHEMA_NAMES } from './schemas/index.ts';
import { gone, notFound } from './shared/index.ts';
import { isValidSlug } from './slugs.ts';
import { LIVE_SCRIPT, LIVE_SCRIPT_PATH } from './error-log/index.ts';

export const PASSTHROUGH_PREFIXES: readonly string[] = ['/schema/', '/bilder/', '/static/'];

export interface CatalogueRouteOptions {
  /** When given, portraits use the person's name for the initials and unknown slugs are 404. */
  readonly persons?: PersonStore;
}

/**
 * A fixed body with a strong ETag, answering If-None-Match with 304 (weak comparison, RFC 9110
 * §13.1.2), compressed like representations (the layer's sendPrepared; prepared once, so each
 * coding is compressed once).
 */
function fixed(body: string, type: string, maxAge: number): CachedRepresentation {
  return prepareFixed(body, type, [
    ['Cache-Control', `public, max-age=${maxAge}`],
    // Also outside the layer's hooks (these routes are plain Fastify routes).
    ['X-Content-Type-Options', 'nosniff'],
  ]);
}

type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;

// The layer turns off Fastify's automatic HEAD routes, so GET and HEAD are declared together.
function get(app: FastifyInstance, url: string, handler: Handler): void {
  app.route({ method: ['GET', 'HEAD'], url, handler });
}

const PORTRAIT_FILE = /^(.+)\.svg$/;

export async function registerCatalogueRoutes(
  app: FastifyInstance,
  opts: CatalogueRouteOptions = {},
): Promise<void> {
  for (const name of SCHEMA_NAMES) {
    const xsd = fixed(readSchema(name, 'xsd'), 'application/xml; charset=utf-8', 86400);
    const json = fixed(readSchema(name, 'json'), 'application/schema+json; charset=utf-8', 86400);
    get(app, `/schema/${name}.xsd`, (req, reply) => sendPrepared(req, reply, xsd));
    get(app, `/schema/${name}.json`, (req, reply) => sendPrepared(req, reply, json));
  }

  const css = fixed(
    readFileSync(join(import.meta.dirname, 'layout', 'shelfmark.css'), 'utf8'),
    'text/css; charset=utf-8',
    3600,
  );
  get(app, '/static/shelfmark.css', (req, reply) => sendPrepared(req, reply, css));

  // The error log's live updates: a file, because the Content-Security-Policy forbids inline script.
  const liveScript = fixed(LIVE_SCRIPT, 'text/javascript; charset=utf-8', 3600);
  get(app, LIVE_SCRIPT_PATH, (req, reply) => sendPrepared(req, reply, liveScript));

  const silhouette = fixed(silhouetteSvg(), 'image/svg+xml', 86400);
  get(app, '/bilder/:file', async (req, reply) => {
    const file = (req.params as { file: string }).file;
    if (file === 'standard.svg') return sendPrepared(req, reply, silhouette);
    const slug = PORTRAIT_FILE.exec(file)?.[1];
    if (slug === undefined || !isValidSlug(slug)) throw notFound();
    let initials = initialsOfSlug(slug);
    if (opts.persons) {
      const found = await opts.persons.bySlug(slug);
      // A private patron's portrait is as unknown as their page (ADR 0062): the same 404, or a
      // picture would confirm who is a patron. Public answers (one for everyone, cached).
      if (found === null || ('found' in found && !found.found.isPublic)) throw notFound();
      if ('gone' in found) {
        if (found.privateTo !== undefined) throw notFound();
        throw gone();
      }
      if ('movedTo' in found) return reply.redirect(`${encodeURIComponent(found.movedTo)}.svg`, 301);
      initials = initialsOfName(found.found.vorname, found.found.nachname);
    }
    return sendPrepared(req, reply, fixed(portraitSvg(slug, initials), 'image/svg+xml', 3600));
  });
}
