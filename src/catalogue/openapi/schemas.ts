// The served JSON Schemas as OpenAPI components (ADR 0074). Each schema's `$defs` become
// components of their own, `{schema}.{def}`, and its `#/$defs/…` references point there: OpenAPI
// tools (openapi-typescript, Redocly, Prism) resolve a `#/…` reference against the document
// root, whatever `$id` the schema carries, so a schema's own `#/$defs/…` is unresolvable to them.
// The served URL is kept as the root schema's `externalDocs`; `unhoisted` gives the served file
// back (a test compares them).
type Json = Record<string, unknown>;

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

export const defComponentName = (schema: string, def: string): string => `${schema}.${def}`;

function mapRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapRefs(v, rewrite));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === '$ref' && typeof v === 'string' ? rewrite(v) : mapRefs(v, rewrite),
    ]),
  );
}

/** A served schema as components: `{name}` and one `{name}.{def}` per `$defs` entry. */
export function hoisted(name: string, served: Json, url: string): Record<string, Json> {
  const { $schema: _dialect, $id: _id, $defs, ...root } = served;
  const rewrite = (ref: string) => {
    if (!ref.startsWith(DEFS)) throw new Error(`${name}: a reference OpenAPI tools cannot resolve: ${ref}`);
    const [def, ...rest] = ref.slice(DEFS.length).split('/');
    return [COMPONENTS + defComponentName(name, def!), ...rest].join('/');
  };
  const components: Record<string, Json> = {
    [name]: { ...(mapRefs(root, rewrite) as Json), externalDocs: { description: 'Served as', url } },
  };
  for (const [def, schema] of Object.entries(($defs ?? {}) as Record<string, Json>))
    components[defComponentName(name, def)] = mapRefs(schema, rewrite) as Json;
  return components;
}

/** The served file back from the components (without `$schema`/`$id`), for comparison. */
export function unhoisted(name: string, components: Record<string, Json>): Json {
  const prefix = COMPONENTS + defComponentName(name, '');
  const back = (ref: string) => (ref.startsWith(prefix) ? DEFS + ref.slice(prefix.length) : ref);
  const { externalDocs: _served, ...root } = components[name] ?? {};
  const defs = Object.entries(components)
    .filter(([key]) => key.startsWith(defComponentName(name, '')))
    .map(([key, schema]) => [key.slice(defComponentName(name, '').length), mapRefs(schema, back)]);
  return { ...(mapRefs(root, back) as Json), ...(defs.length > 0 && { $defs: Object.fromEntries(defs) }) };
}
