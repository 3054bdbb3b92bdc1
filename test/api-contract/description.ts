// Reading the served OpenAPI description in the contract tests: which operation a concrete
// request is, and what that operation lists (statuses, request media types).
export type Operation = {
  operationId: string;
  responses: Record<string, unknown>;
  requestBody?: { required?: boolean; content: Record<string, unknown> };
};
export type Description = {
  paths: Record<string, Record<string, Operation | unknown>>;
  components: { schemas: Record<string, unknown> };
};

export const UNSAFE = ['post', 'put', 'patch', 'delete'] as const;
export const METHODS = ['get', ...UNSAFE] as const;

function templateRegex(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
}

/** The operation a request is (the literal path wins over a template), or undefined. */
export function operationOf(doc: Description, method: string, path: string): Operation | undefined {
  const pathname = new URL(path, 'http://x').pathname;
  const templates = Object.keys(doc.paths).filter((t) => templateRegex(t).test(pathname));
  // `/werke/{slug}/vormerkungen` and `/personen/{slug}/vormerkungen` never collide; a literal
  // segment beats a parameter (as routers do): fewer parameters first.
  templates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  for (const template of templates) {
    const operation = doc.paths[template]![method.toLowerCase()] as Operation | undefined;
    if (operation) return operation;
  }
  return undefined;
}

/** Every operation of the description, by operationId. */
export function operations(
  doc: Description,
): Map<string, { method: string; path: string; operation: Operation }> {
  const all = new Map<string, { method: string; path: string; operation: Operation }>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (operation) all.set(operation.operationId, { method, path, operation });
    }
  return all;
}
