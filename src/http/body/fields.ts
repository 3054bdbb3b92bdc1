// The parsed request body: one field object, the same whatever the wire format.
// Form and XML values are strings (or arrays of them, or nested objects for XML elements with
// children); JSON values keep their JSON types. Objects have no prototype, so a field named
// `__proto__` or `constructor` is just data.

export type FieldValue = string | number | boolean | null | FieldValue[] | Fields;
export interface Fields {
  [name: string]: FieldValue;
}

export function emptyFields(): Fields {
  return Object.create(null) as Fields;
}

/** Adds a value; a repeated name turns the field into an array in arrival order. */
export function addField(fields: Fields, name: string, value: FieldValue): void {
  if (!Object.hasOwn(fields, name)) {
    fields[name] = value;
    return;
  }
  const current = fields[name];
  if (Array.isArray(current)) current.push(value);
  else fields[name] = [current as FieldValue, value];
}

export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
