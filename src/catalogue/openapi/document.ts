// Builds the OpenAPI 3.1 description served at /openapi.json (ADR 0057) from the registered
// resource definitions (their methods) and the table in ./paths.ts (readable paths, schemas).
import { problemSchemas } from '../../http/errors/index.ts';
import type { HandlerMethod, Links, ResourceDefinition } from '../../http/resource/types.ts';
import { readSchema, type SchemaName } from '../schemas/index.ts';
import { DOCUMENTED_PATHS, type DocumentedPath } from './paths.ts';

type Json = Record<string, unknown>;

const METHODS: readonly HandlerMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Both ways to authenticate: either one will do (docs/access.md). */
const SIGNED_IN = [{ basic: [] }, { session: [] }];

const FORMAT_PARAMETER: Json = {
  name: 'format',
  in: 'query',
  description: 'Chooses the representation instead of Accept (a `.json`/`.xml`/`.html` suffix does too).',
  schema: { type: 'string', enum: ['html', 'xml', 'json'] },
};

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name!.endsWith('_id') ? { type: 'integer', minimum: 1 } : { type: 'string', pattern: '^[^/.]+$' },
  }));
}

/**
 * The served JSON Schemas, inlined (validators and generators seldom fetch external references),
 * each with its served URL as `$id`: that names where it lives, and keeps its own `#/$defs/…`
 * references inside it.
 */
function inlined(json: string, url: string): Json {
  return { ...(JSON.parse(json) as Json), $id: url };
}

function getResponses(entry: DocumentedPath, links: Links): Json {
  const json = entry.schema ? { $ref: `#/components/schemas/${entry.schema}` } : { type: 'object' };
  // The XSD is no JSON Schema: the XML is a string whose external documentation is its XSD.
  const xml = entry.schema
    ? { externalDocs: { description: 'XML Schema', url: links.absolute(`/schema/${entry.schema}.xsd`) } }
    : {};
  return {
    '200': {
      description: 'The representation the client asked for.',
      content: {
        'application/json': { schema: json },
        'application/xml': { schema: { type: 'string', ...xml } },
        'text/html': { schema: { type: 'string' } },
      },
    },
    '304': { description: 'Not modified (If-None-Match / If-Modified-Since).' },
    default: { $ref: '#/components/responses/Problem' },
  };
}

function unsafeOperation(method: HandlerMethod): Json {
  const body = {
    required: true,
    content: {
      'application/json': { schema: { type: 'object' } },
      'application/xml': { schema: { type: 'string' } },
      'application/x-www-form-urlencoded': { schema: { type: 'object' } },
    },
  };
  return {
    ...(method !== 'DELETE' && { requestBody: body }),
    responses: {
      '2XX': { description: 'Done: 200 or 201 (Location) with the representation, or 204.' },
      '303': { description: 'An HTML form was sent: see the resource now.' },
      default: { $ref: '#/components/responses/Problem' },
    },
  };
}

function pathItem(entry: DocumentedPath, resource: ResourceDefinition, links: Links): Json {
  const item: Json = { summary: entry.summary };
  const parameters = [...pathParameters(entry.path), FORMAT_PARAMETER];
  for (const method of METHODS) {
    if (!resource.methods[method] || (entry.methods && !entry.methods.includes(method))) continue;
    const signIn = entry.signIn === 'always' || (entry.signIn === 'writes' && method !== 'GET');
    const query =
      method === 'GET'
        ? (entry.query ?? []).map((q) => ({ ...q, in: 'query', schema: { type: q.type } }))
        : [];
    const operation = method === 'GET' ? { responses: getResponses(entry, links) } : unsafeOperation(method);
    item[method.toLowerCase()] = {
      tags: [entry.resource],
      parameters: [...parameters, ...query.map(({ type: _type, ...q }) => q)],
      ...operation,
      ...(signIn && { security: SIGNED_IN }),
    };
  }
  return item;
}

export interface OpenApiOptions {
  readonly links: Links;
  readonly resources: readonly ResourceDefinition[];
  /** The session cookie's name (src/http/session). */
  readonly sessionCookie: string;
}

function servedSchema(name: SchemaName, links: Links): Json {
  return inlined(readSchema(name, 'json'), links.absolute(`/schema/${name}.json`));
}

/** Every registered resource must be in ./paths.ts: an undocumented one throws. */
export function openApiDocument(options: OpenApiOptions): Json {
  const { links, resources } = options;
  const documented = new Set(DOCUMENTED_PATHS.map((entry) => entry.resource));
  const missing = resources.filter((r) => !documented.has(r.name)).map((r) => r.name);
  if (missing.length > 0)
    throw new Error(`resources without an entry in openapi/paths.ts: ${missing.join(', ')}`);
  const paths: Json = {};
  const schemas: Json = {};
  for (const entry of DOCUMENTED_PATHS) {
    const resource = resources.find((r) => r.name === entry.resource);
    if (!resource) continue;
    paths[entry.path] = pathItem(entry, resource, links);
    if (entry.schema) schemas[entry.schema] = servedSchema(entry.schema, links);
  }
  schemas.problem = inlined(problemSchemas().json, links.absolute('/schema/problem.json'));
  return {
    openapi: '3.1.1',
    info: {
      title: 'Shelfmark',
      version: '1',
      description:
        'Every resource answers HTML, XML and JSON (Accept, `?format=` or a suffix). Errors are ' +
        'problem details (RFC 9457). Unsafe requests of a cookie session from a form carry `_csrf`.',
    },
    servers: [{ url: links.absolute('/').replace(/\/$/, '') }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic' },
        session: { type: 'apiKey', in: 'cookie', name: options.sessionCookie },
      },
      responses: {
        Problem: {
          description: 'An error, as problem details (the error code is in `code`, docs/errors.md).',
          content: {
            'application/problem+json': { schema: { $ref: '#/components/schemas/problem' } },
            'application/problem+xml': {
              schema: {
                type: 'string',
                externalDocs: { description: 'XML Schema', url: links.absolute('/schema/problem.xsd') },
              },
            },
            'text/html': { schema: { type: 'string' } },
          },
        },
      },
    },
  };
}
