// application/json. JSON.parse with a reviver that refuses prototype-poisoning keys (the same
// rule as Fastify's default `onProtoPoisoning: 'error'` / `onConstructorPoisoning: 'error'`),
// applied to text we decoded strictly ourselves.
import { isFields, type Fields } from './fields.ts';
import { HttpError } from '../errors/index.ts';
import { parserMessage } from '../errors/bounded-detail.ts';

function refusePoison(key: string, value: unknown): unknown {
  if (
    key === '__proto__' ||
    (key === 'constructor' && isFields(value) && Object.hasOwn(value, 'prototype'))
  ) {
    throw new HttpError('SHELFMARK_BODY_MALFORMED', {
      detail: `The JSON body contains the forbidden key "${key}".`,
    });
  }
  return value;
}

export function parseJsonFields(text: string): Fields {
  let value: unknown;
  try {
    value = JSON.parse(text, refusePoison);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError('SHELFMARK_BODY_MALFORMED', {
      detail: `The JSON body is malformed: ${parserMessage((error as Error).message)}`,
    });
  }
  if (!isFields(value)) {
    throw new HttpError('SHELFMARK_VALIDATION_FAILED', {
      detail: 'The JSON body must be an object of fields.',
    });
  }
  return value;
}
