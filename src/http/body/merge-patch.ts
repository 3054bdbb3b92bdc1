// JSON Merge Patch (RFC 7396): the patch document's members replace the target's, `null`
// removes one, objects merge recursively, anything else (arrays too) replaces whole. Pure; the
// result is a new value made of null-prototype objects (a `__proto__` member is just data).
import { emptyFields, isFields, type FieldValue, type Fields } from './fields.ts';

/** The media type of a merge patch, named by `Accept-Patch` (RFC 5789 §3.1). */
export const MERGE_PATCH_TYPE = 'application/merge-patch+json';

/** RFC 7396 §2 MergePatch(Target, Patch). */
export function applyMergePatch(target: FieldValue | undefined, patch: FieldValue): FieldValue {
  if (!isFields(patch)) return patch;
  const result: Fields = emptyFields();
  if (isFields(target)) for (const [name, value] of Object.entries(target)) result[name] = value;
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = applyMergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value);
  }
  return result;
}
