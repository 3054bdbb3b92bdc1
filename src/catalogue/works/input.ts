// Reads a work from a request body (form, JSON or XML: the representation's field names).
// Writable: titel (required), jahr, exemplare (default 1) and the work's persons, `person`: URLs
// or slugs of persons, as the representations write them — JSON `[{name, url}]` or plain
// strings, XML `<personen><person ref="…"/></personen>`, a form's repeated field or text area.
// `verfuegbar` is derived (copies not lent out) and ignored on input, like the persons' names.
import type { Links } from '../../http/resource/types.ts';
import type { FieldSpec } from '../../http/body/index.ts';
import type { PersonRef, PersonStore } from '../model.ts';
import {
  checkAll,
  flattenRefs,
  inFieldOrder,
  problem,
  refTarget,
  type RefTarget,
  type WriteProblem,
} from '../writes/index.ts';
import type { WorkInput } from './store.ts';
import { PERSONS_PATH } from '../shared/index.ts';

export const TITLE_MAX = 200;
export const YEAR_MIN = -3000;
export const YEAR_MAX = 2100;
export const COPIES_MAX = 10_000;
export const PERSONS_MAX = 50;

export const WORK_FIELDS = {
  titel: { type: 'string', required: true, maxLength: TITLE_MAX },
  jahr: { type: 'int', min: YEAR_MIN, max: YEAR_MAX },
  exemplare: { type: 'int', min: 0, max: COPIES_MAX },
  person: { type: 'url-or-slug', many: true },
} as const satisfies FieldSpec;

export const WORK_FIELD_NAMES = Object.keys(WORK_FIELDS);

export type WorkFields = Omit<WorkInput, 'slug'>;

export type WorkRead =
  | { readonly ok: true; readonly input: WorkFields }
  | { readonly ok: false; readonly problems: WriteProblem[] };

/**
 * The body with `person` flattened from every shape a client may send (see above), and paths
 * as HTML shows them (`/personen/goethe`) made absolute, as the validator wants URLs or slugs.
 */
function normalised(body: unknown, links: Links): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  if (!Object.hasOwn(fields, 'person') && !Object.hasOwn(fields, 'personen')) return body;
  const { person, personen, ...rest } = fields;
  const origin = new URL(links.absolute('/')).origin;
  const refs = [...flattenRefs(personen, 'person'), ...flattenRefs(person, 'person')].map((ref) =>
    typeof ref === 'string' && ref.startsWith('/') && !ref.startsWith('//') ? origin + ref : ref,
  );
  return { ...rest, person: refs };
}

const unknownPerson = (ref: string): WriteProblem =>
  problem('person', `is not a person of this catalogue: ${ref}`, {
    de: `Keine Person dieses Katalogs: ${ref}`,
    en: `Not a person of this catalogue: ${ref}`,
  });

/** The id of a person `known` names as `target` (by id or by the slug it had then). */
const knownId = (known: readonly PersonRef[], target: RefTarget) =>
  known.find((p) => ('id' in target ? p.id === target.id : p.slug === target.slug))?.id;

/**
 * The live person ids the references name, in order; a moved slug counts as its new one. A
 * person of `known` (the work's persons as read before) is not looked up again: the write checks
 * under its locks that every person it links is live (works/store.ts).
 */
async function personIds(
  refs: readonly string[],
  persons: PersonStore,
  links: Links,
  known: readonly PersonRef[],
) {
  const ids: number[] = [];
  for (const ref of refs) {
    const target = refTarget(ref, PERSONS_PATH, '/person', links);
    const id = target === null ? null : (knownId(known, target) ?? (await persons.idOf(target)));
    if (id === null) return unknownPerson(ref);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

export async function readWork(
  body: unknown,
  persons: PersonStore,
  links: Links,
  known: readonly PersonRef[] = [],
): Promise<WorkRead> {
  const { values: v, problems } = checkAll(normalised(body, links), WORK_FIELDS, ['titel']);
  let ids: number[] = [];
  if (v.person !== undefined && v.person.length > PERSONS_MAX) {
    problems.push(
      problem('person', `must name at most ${PERSONS_MAX} persons`, {
        de: `Höchstens ${PERSONS_MAX} Personen.`,
        en: `At most ${PERSONS_MAX} persons.`,
      }),
    );
  } else if (v.person !== undefined) {
    const resolved = await personIds(v.person, persons, links, known);
    if (Array.isArray(resolved)) ids = resolved;
    else problems.push(resolved);
  }
  if (problems.length > 0 || v.titel === undefined) {
    return { ok: false, problems: inFieldOrder(problems, WORK_FIELD_NAMES) };
  }
  return {
    ok: true,
    input: { titel: v.titel, jahr: v.jahr ?? null, exemplare: v.exemplare ?? 1, personIds: ids },
  };
}
