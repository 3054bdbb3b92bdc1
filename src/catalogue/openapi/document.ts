// Builds the OpenAPI 3.1 description served at /openapi.json (ADRs 0057, 0074, 0097) from the
// registered resource definitions (their methods and formats), the registry (readable paths,
// schemas) and the table in ./paths.ts (summaries, query parameters, access, bodies, refusals); the statuses follow from ./responses.ts, the write bodies
// from the writers' field specs (./bodies.ts), the schemas from the served files (./schemas.ts).
import { ACCEPT_PATCH, ACCEPT_POST, MERGE_PATCH_TYPE } from '../../http/body/index.ts';
import { problemSchemas } from '../../http/errors/index.ts';
import type { ExtraFormat, HandlerMethod, Links, ResourceDefinition } from '../../http/resource/types.ts';
import { mediaTypeOf } from '../../http/negotiation/index.ts';
import { readSchema, type SchemaName } from '../schemas/index.ts';
import { BODIES, type BodySchema } from './bodies.ts';
import { isNumberParameter, routeOf, routeQuery } from '../registry/index.ts';
import { DOCUMENTED_PATHS, type Access, type DocumentedPath, type OperationFacts } from './paths.ts';
import { codesOf, DEFAULT_SUCCESS, operationStatuses, problemResponseName } from './responses.ts';
import { hoisted } from './schemas.ts';
import { securitySchemes, securityOf, ACCESS_TEXT } from './security.ts';

type Json = Record<string, unknown>;

const METHODS: readonly HandlerMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `?format=`: the three of every resource and the extra ones of this one (ADR 0095, 0096). */
function formatParameter(extras: readonly ExtraFormat[]): Json {
  const suffixes = ['json', 'xml', 'html', ...extras].map((f) => `\`.${f}\``).join('/');
  return {
    name: 'format',
    in: 'query',
    description: `Chooses the representation instead of Accept (a ${suffixes} suffix does too).`,
    schema: { type: 'string', enum: ['html', 'xml', 'json', ...extras] },
  };
}

/** What each extra format is, for its media type's description. */
const EXTRA_TEXT: Record<ExtraFormat, string> = {
  ris: 'The work as a RIS citation (CRLF lines, `TY  - BOOK` … `ER  - `).',
  bib: 'The work as a BibTeX `@book` entry.',
  atom: 'An Atom feed (RFC 4287) of the newest works (all, or the person’s), newest first.',
};
const IF_MATCH: Json = {
  name: 'If-Match',
  in: 'header',
  description: 'The ETag the change is based on: a stale one answers 412 (docs/api.md).',
  schema: { type: 'string' },
};

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: isNumberParameter(name!)
      ? { type: 'integer', minimum: 1 }
      : { type: 'string', pattern: '^[^/.]+$' },
  }));
}

const xmlText = (links: Links, schema: string, what: string): Json => ({
  type: 'string',
  description: what,
  externalDocs: { description: 'XML Schema', url: links.absolute(`/schema/${schema}.xsd`) },
});

/** The three representations of a schema (an undescribed object without one). */
function representations(schema: SchemaName | undefined, links: Links, extras: readonly ExtraFormat[]): Json {
  return {
    ...Object.fromEntries(
      extras.map((f) => [mediaTypeOf(f), { schema: { type: 'string', description: EXTRA_TEXT[f] } }]),
    ),
    'application/json': { schema: schema ? { $ref: `#/components/schemas/${schema}` } : { type: 'object' } },
    'application/xml': {
      schema: schema ? xmlText(links, schema, 'The XML representation.') : { type: 'string' },
    },
    'text/html': { schema: { type: 'string' } },
  };
}

const header = (description: string): Json => ({ description, schema: { type: 'string' } });

function successResponse(
  status: number,
  schema: SchemaName | undefined,
  links: Links,
  extras: readonly ExtraFormat[],
): Json {
  switch (status) {
    case 200:
      return {
        description: 'The representation the client asked for.',
        content: representations(schema, links, extras),
      };
    case 201:
      return {
        description: 'Created: `Location` names the new resource; the body is its representation.',
        headers: { Location: { ...header('The new resource’s URL.'), required: true } },
        content: representations(schema, links, extras),
      };
    case 204:
      return { description: 'Done; nothing to show.' };
    case 301:
    case 308:
      return {
        description: 'The slug was renamed: `Location` is the resource’s URL now (308 keeps the method).',
        headers: { Location: header('Where the resource is now.') },
      };
    case 303:
      return {
        description: 'An HTML form was sent: see `Location` now.',
        headers: { Location: header('What to show next.') },
      };
    case 304:
      return { description: 'Not modified (If-None-Match / If-Modified-Since).' };
    default:
      return { $ref: `#/components/responses/${problemResponseName(status)}` };
  }
}

/** The body of a write: JSON, XML and a form; PATCH: a JSON merge patch of the same fields. */
function requestBody(method: HandlerMethod, body: BodySchema): Json {
  if (method === 'PATCH') {
    const { required: _all, properties = {}, ...rest } = body.json as Json & { properties?: Json };
    const nullable = Object.fromEntries(
      Object.entries(properties as Record<string, Json>).map(([k, v]) => [
        k,
        { anyOf: [v, { type: 'null' }] },
      ]),
    );
    return {
      required: true,
      description: `A JSON Merge Patch (RFC 7396; \`${ACCEPT_PATCH}\` only): the members to change, null to clear one.`,
      content: { [MERGE_PATCH_TYPE]: { schema: { ...rest, properties: nullable } } },
    };
  }
  const xml = {
    schema: {
      type: 'string',
      description:
        'One root element with one child element per field (the representation’s own XML will do).',
    },
  };
  return {
    required: !body.optional,
    description: `JSON, XML or an HTML form (Accept-Post: ${ACCEPT_POST}).`,
    content: {
      'application/json': { schema: body.json },
      'application/xml': xml,
      'text/xml': xml,
      'application/x-www-form-urlencoded': { schema: body.form },
    },
  };
}

function operation(
  entry: DocumentedPath,
  method: HandlerMethod,
  links: Links,
  extras: readonly ExtraFormat[],
): Json {
  const facts: OperationFacts = entry.operations?.[method] ?? {};
  const access: Access = facts.access ?? (method === 'GET' ? entry.read : entry.write);
  const body = facts.body ? BODIES[facts.body] : undefined;
  const statuses = operationStatuses({
    method,
    access,
    hasBody: body !== undefined,
    path: entry.path,
    success: facts.success ?? DEFAULT_SUCCESS[method],
    refusals: facts.refusals ?? [],
  });
  const answers = facts.answers ?? entry.schema;
  const query =
    method === 'GET'
      ? (entry.query ?? []).map((q) => ({
          name: q.name,
          in: 'query',
          description: q.description,
          schema: q.schema,
          // Repeated, not comma-joined: `?dekade=1800&dekade=1810` (OpenAPI's form style, exploded).
          ...(q.repeats && { style: 'form', explode: true }),
        }))
      : [];
  const description = [facts.description, `**Access:** ${ACCESS_TEXT[access]}`].filter(Boolean).join('\n\n');
  return {
    operationId: `${method.toLowerCase()}${entry.id}`,
    summary: facts.summary ?? `${method} ${entry.summary}`,
    description,
    tags: [entry.resource],
    'x-shelfmark-access': access,
    ...((query.length > 0 || ['PUT', 'PATCH', 'DELETE'].includes(method)) && {
      parameters: [...query, ...(method === 'GET' || method === 'POST' ? [] : [IF_MATCH])],
    }),
    ...(body && method !== 'DELETE' && { requestBody: requestBody(method, body) }),
    // The extra formats are read-only forms (a write answers in the three).
    responses: Object.fromEntries(
      statuses.map((s) => [String(s), successResponse(s, answers, links, method === 'GET' ? extras : [])]),
    ),
    security: securityOf(access, method),
  };
}

/**
 * The methods of the URL: its resource's, or of those the ones `methodsAt` names for the query
 * the URL's route hands it (a route shared by URLs). Facts of another method are a mistake.
 */
function methodsOf(entry: DocumentedPath, resource: ResourceDefinition): HandlerMethod[] {
  const at = resource.methodsAt?.(routeQuery(entry.id));
  const methods = METHODS.filter((m) => resource.methods[m] && (!at || at.includes(m)));
  const stray = Object.keys(entry.operations ?? {}).filter((m) => !methods.includes(m as HandlerMethod));
  if (stray.length > 0)
    throw new Error(
      `openapi/paths.ts has facts of ${stray.join(', ')} for ${entry.path}, which has no such method`,
    );
  return methods;
}

function pathItem(entry: DocumentedPath, resource: ResourceDefinition, links: Links): Json {
  const item: Json = {
    summary: entry.summary,
    parameters: [...pathParameters(entry.path), formatParameter(resource.formats ?? [])],
  };
  for (const method of methodsOf(entry, resource))
    item[method.toLowerCase()] = operation(entry, method, links, resource.formats ?? []);
  return item;
}

function problemResponses(used: ReadonlySet<string>, links: Links): Json {
  const responses: Json = {};
  for (let status = 400; status < 600; status++) {
    if (codesOf(status).length === 0) continue;
    const name = problemResponseName(status);
    if (!used.has(`#/components/responses/${name}`)) continue;
    const headers: Json = {
      ...(status === 401 && {
        'WWW-Authenticate': header('The Basic challenge (to clients that sent Basic).'),
      }),
      ...(status === 415 && {
        'Accept-Post': header('The media types a POST or PUT takes.'),
        'Accept-Patch': header('The media type a PATCH takes.'),
      }),
      ...((status === 429 || status === 503) && { 'Retry-After': header('Seconds to wait.') }),
    };
    responses[name] = {
      description:
        `Problem details (RFC 9457), \`code\`: ${codesOf(status)
          .map((c) => `\`${c}\``)
          .join(', ')} (docs/errors.md).` +
        (status === 500
          ? ' The body is empty unless the server shows errors (`SHELFMARK_DISPLAY_ERRORS`).'
          : ''),
      ...(Object.keys(headers).length > 0 && { headers }),
      content: {
        'application/problem+json': { schema: { $ref: '#/components/schemas/problem' } },
        'application/problem+xml': { schema: xmlText(links, 'problem', 'The problem as XML.') },
        'text/html': { schema: { type: 'string' } },
      },
    };
  }
  return responses;
}

function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, found));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.add(v);
      else refsIn(v, found);
    }
  return found;
}

export interface OpenApiOptions {
  readonly links: Links;
  readonly resources: readonly ResourceDefinition[];
  /** The session cookie's name (src/http/session). */
  readonly sessionCookie: string;
}

/** Every registered resource must be in ./paths.ts: an undocumented one throws. */
export function openApiDocument(options: OpenApiOptions): Json {
  const { links, resources } = options;
  const documented = new Set(DOCUMENTED_PATHS.map((entry) => entry.resource));
  const missing = resources.filter((r) => !documented.has(r.name)).map((r) => r.name);
  if (missing.length > 0)
    throw new Error(`resources without an entry in openapi/paths.ts: ${missing.join(', ')}`);
  const paths: Json = {};
  const tags: Json[] = [];
  let schemas: Record<string, Json> = {};
  const served = (name: string, json: string) =>
    (schemas = {
      ...schemas,
      ...hoisted(name, JSON.parse(json) as Json, links.absolute(`/schema/${name}.json`)),
    });
  for (const entry of DOCUMENTED_PATHS) {
    const resource = resources.find((r) => r.name === entry.resource);
    if (!resource) continue;
    // The route is the registry's (ADR 0090): a definition elsewhere would answer no readable URL.
    const route = routeOf(entry.id);
    if (resource.path !== route)
      throw new Error(
        `resource ${resource.name} is at ${resource.path}, but its URL ${entry.path} goes to ${route}`,
      );
    paths[entry.path] = pathItem(entry, resource, links);
    if (!tags.some((t) => t.name === entry.resource))
      tags.push({ name: entry.resource, description: entry.summary });
  }
  served('problem', problemSchemas().json);
  const operations = refsIn(paths);
  for (const ref of operations) {
    const name = /^#\/components\/schemas\/([^/.]+)$/.exec(ref)?.[1];
    if (name && !schemas[name]) served(name, readSchema(name as SchemaName, 'json'));
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Shelfmark',
      version: '1',
      description:
        'A lending library’s catalogue. Every resource answers HTML, XML and JSON (Accept, `?format=` or a ' +
        'suffix). Errors are problem details (RFC 9457). Writes from a cookie session need `Origin` and ' +
        '`X-CSRF-Token`. The guide for client developers: docs/api.md.',
    },
    servers: [{ url: links.absolute('/').replace(/\/$/, '') }],
    tags,
    paths,
    components: {
      schemas,
      responses: problemResponses(operations, links),
      securitySchemes: securitySchemes(options.sessionCookie),
    },
  };
}
