// An OAI-PMH request's arguments checked as the protocol says (OAI-PMH 2.0, 3.1 and 4): the
// verb, then which arguments it takes, requires, or takes exclusively (resumptionToken). Every
// argument may appear once. What fails here is badVerb or badArgument, whose answers echo no
// argument (3.6: "the repository must return the base URL of the protocol request only"); what
// passes is a typed request whose arguments are safe to echo as `request` attributes.
import { parseDateArgument, type DateArgument } from './dates.ts';

export const VERBS = [
  'Identify',
  'ListMetadataFormats',
  'ListSets',
  'GetRecord',
  'ListIdentifiers',
  'ListRecords',
] as const;
export type Verb = (typeof VERBS)[number];

export type ErrorCode =
  | 'badArgument'
  | 'badResumptionToken'
  | 'badVerb'
  | 'cannotDisseminateFormat'
  | 'idDoesNotExist'
  | 'noRecordsMatch'
  | 'noMetadataFormats'
  | 'noSetHierarchy';

export interface OaiError {
  readonly code: ErrorCode;
  readonly message: string;
}

/** The arguments as given: name → every value (a repeated argument has several). */
export type RawArguments = ReadonlyMap<string, readonly string[]>;

export type ListRequest = {
  readonly verb: 'ListIdentifiers' | 'ListRecords';
  readonly args: Record<string, string>;
} & (
  | { readonly resumptionToken: string }
  | {
      readonly metadataPrefix: string;
      readonly from: DateArgument | null;
      readonly until: DateArgument | null;
      readonly set: string | null;
    }
);

export type OaiRequest =
  | { readonly verb: 'Identify'; readonly args: Record<string, string> }
  | {
      readonly verb: 'ListMetadataFormats';
      readonly args: Record<string, string>;
      readonly identifier: string | null;
    }
  | {
      readonly verb: 'ListSets';
      readonly args: Record<string, string>;
      readonly resumptionToken: string | null;
    }
  | {
      readonly verb: 'GetRecord';
      readonly args: Record<string, string>;
      readonly identifier: string;
      readonly metadataPrefix: string;
    }
  | ListRequest;

interface Rules {
  readonly required: readonly string[];
  readonly optional: readonly string[];
  /** An argument that must come alone (beside the verb). */
  readonly exclusive?: string;
}

const RULES: Record<Verb, Rules> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], exclusive: 'resumptionToken' },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  ListIdentifiers: {
    required: ['metadataPrefix'],
    optional: ['from', 'until', 'set'],
    exclusive: 'resumptionToken',
  },
  ListRecords: {
    required: ['metadataPrefix'],
    optional: ['from', 'until', 'set'],
    exclusive: 'resumptionToken',
  },
};

/** The characters the protocol's schema allows in a metadataPrefix and a setSpec segment. */
const PREFIX = /^[A-Za-z0-9\-_.!~*'()]+$/;
const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

const isVerb = (v: string): v is Verb => (VERBS as readonly string[]).includes(v);

const bad = (message: string): OaiError => ({ code: 'badArgument', message });

/** Arguments the rules of `verb` allow, each present once, or the badArgument errors. */
function checkNames(verb: Verb, raw: RawArguments): OaiError[] {
  const rules = RULES[verb];
  const errors: OaiError[] = [];
  const allowed = new Set([
    ...rules.required,
    ...rules.optional,
    ...(rules.exclusive ? [rules.exclusive] : []),
  ]);
  for (const [name, values] of raw) {
    if (name === 'verb') continue;
    if (!allowed.has(name)) errors.push(bad(`${verb} does not take the argument "${name}".`));
    else if (values.length > 1) errors.push(bad(`The argument "${name}" is given more than once.`));
  }
  if (rules.exclusive && raw.has(rules.exclusive)) {
    if (raw.size > 2)
      errors.push(bad(`${rules.exclusive} is an exclusive argument: nothing may come beside it.`));
    return errors;
  }
  for (const name of rules.required)
    if (!raw.has(name)) errors.push(bad(`${verb} needs the argument "${name}".`));
  return errors;
}

function dateArgument(raw: RawArguments, name: 'from' | 'until', errors: OaiError[]): DateArgument | null {
  const value = raw.get(name)?.[0];
  if (value === undefined) return null;
  const parsed = parseDateArgument(value);
  if (!parsed) errors.push(bad(`"${name}" must be a date YYYY-MM-DD or a time YYYY-MM-DDThh:mm:ssZ.`));
  return parsed;
}

function listRequest(verb: ListRequest['verb'], raw: RawArguments, args: Record<string, string>) {
  const token = raw.get('resumptionToken')?.[0];
  if (token !== undefined) return { request: { verb, args, resumptionToken: token } };
  const errors: OaiError[] = [];
  const from = dateArgument(raw, 'from', errors);
  const until = dateArgument(raw, 'until', errors);
  if (from && until && from.granularity !== until.granularity)
    errors.push(bad('"from" and "until" must have the same granularity.'));
  else if (from && until && from.start > until.start) errors.push(bad('"from" is later than "until".'));
  const metadataPrefix = args.metadataPrefix!;
  if (!PREFIX.test(metadataPrefix)) errors.push(bad('"metadataPrefix" has characters no prefix has.'));
  const set = args.set ?? null;
  if (set !== null && !SET_SPEC.test(set)) errors.push(bad('"set" is not a setSpec.'));
  if (errors.length > 0) return { errors };
  return { request: { verb, args, metadataPrefix, from, until, set } };
}

/** The request, or the badVerb / badArgument errors it deserves. */
export function parseRequest(raw: RawArguments): { request: OaiRequest } | { errors: OaiError[] } {
  const verbs = raw.get('verb') ?? [];
  const verb = verbs[0];
  if (verbs.length !== 1 || verb === undefined)
    return {
      errors: [
        {
          code: 'badVerb',
          message: verbs.length === 0 ? 'The verb is missing.' : 'The verb is given more than once.',
        },
      ],
    };
  if (!isVerb(verb)) return { errors: [{ code: 'badVerb', message: 'This is not an OAI-PMH verb.' }] };
  const nameErrors = checkNames(verb, raw);
  if (nameErrors.length > 0) return { errors: nameErrors };
  const args: Record<string, string> = {};
  for (const [name, [value]] of raw) if (value !== undefined) args[name] = value;
  switch (verb) {
    case 'Identify':
      return { request: { verb, args } };
    case 'ListMetadataFormats':
      return { request: { verb, args, identifier: args.identifier ?? null } };
    case 'ListSets':
      return { request: { verb, args, resumptionToken: args.resumptionToken ?? null } };
    case 'GetRecord':
      if (!PREFIX.test(args.metadataPrefix!))
        return { errors: [bad('"metadataPrefix" has characters no prefix has.')] };
      return { request: { verb, args, identifier: args.identifier!, metadataPrefix: args.metadataPrefix! } };
    default:
      return listRequest(verb, raw, args);
  }
}

/** Arguments from a query string or a form body; null when it is not well-formed (badArgument). */
export function readArguments(text: string): RawArguments | null {
  const raw = new Map<string, string[]>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent((eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
      value = eq === -1 ? '' : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      return null;
    }
    const values = raw.get(name);
    if (values) values.push(value);
    else raw.set(name, [value]);
  }
  return raw;
}
