// Row ids as URLs and bodies carry them (`?id=`, loan ids, `/werk?id=`): a positive integer
// without leading zeros, at most 15 digits so it is always a safe integer. Anything else names
// no row (the caller answers 404, 403 or 422 as its resource says).
const ID_PATTERN = /^[1-9][0-9]{0,14}$/;

/** The id a text names, or null when it is absent or not an id. */
export function parseId(text: string | null | undefined): number | null {
  return typeof text === 'string' && ID_PATTERN.test(text) ? Number(text) : null;
}
