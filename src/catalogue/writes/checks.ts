// Field checks shared by the person and work readers, on top of the body layer's checkFields.
import { checkFields, type FieldSpec, type Validated } from '../../http/body/index.ts';
import { problem, type WriteProblem } from './problems.ts';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export interface Checked<S extends FieldSpec> {
  /** The values of every field that passed (absent when it was blank or had a problem). */
  readonly values: Partial<Validated<S>>;
  readonly problems: WriteProblem[];
}

/**
 * Every problem at once: the spec's, then control characters in the named text fields. Values
 * of the fields without problems are returned, so further checks can still look at them.
 */
export function checkAll<S extends FieldSpec>(
  body: unknown,
  spec: S,
  plainText: readonly string[],
): Checked<S> {
  const first = checkFields(body, spec);
  if (first.ok) return { values: first.value, problems: controlProblems(first.value, plainText) };
  const problems: WriteProblem[] = [...first.problems];
  if (problems.some((p) => p.field === '')) return { values: {}, problems };
  const bad = new Set(problems.map((p) => p.field));
  const rest = Object.fromEntries(Object.entries(spec).filter(([name]) => !bad.has(name))) as FieldSpec;
  const second = checkFields(body, rest);
  const values = (second.ok ? second.value : {}) as Partial<Validated<S>>;
  problems.push(...controlProblems(values, plainText));
  return { values, problems };
}

function controlProblems(values: object, names: readonly string[]): WriteProblem[] {
  return names
    .filter((name) => {
      const v = (values as Record<string, unknown>)[name];
      return typeof v === 'string' && CONTROL.test(v);
    })
    .map((name) =>
      problem(name, 'must not contain control characters', {
        de: 'Bitte keine Steuerzeichen (etwa Zeilenumbrüche).',
        en: 'Please use no control characters (such as line breaks).',
      }),
    );
}

/** Problems sorted by the order of the fields in the form, so the summary reads top-down. */
export function inFieldOrder(problems: WriteProblem[], order: readonly string[]): WriteProblem[] {
  const rank = (p: WriteProblem) => (order.includes(p.field) ? order.indexOf(p.field) : order.length);
  return [...problems].sort((a, b) => rank(a) - rank(b));
}
