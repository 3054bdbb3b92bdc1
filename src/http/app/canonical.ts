// Is the URL the client used the representation's canonical one? Query order and ?format=
// do not make a URL different; any other parameter (or another path) does.
function normalise(path: string, query: URLSearchParams): string {
  const params = [...query].filter(([name]) => name !== 'format');
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const qs = new URLSearchParams(params).toString();
  return qs ? `${path}?${qs}` : path;
}

export function isCanonicalRequest(
  path: string,
  clientQuery: URLSearchParams,
  canonicalPath: string,
): boolean {
  const at = canonicalPath.indexOf('?');
  const canonical =
    at < 0
      ? normalise(canonicalPath, new URLSearchParams())
      : normalise(canonicalPath.slice(0, at), new URLSearchParams(canonicalPath.slice(at + 1)));
  return normalise(path, clientQuery) === canonical;
}
