// The catalogue's errors, thrown as the resource layer's HttpError (it renders problem details).
import { HttpError } from '../../http/errors/index.ts';

export { HttpError };

export function notFound(detail?: string): HttpError {
  return new HttpError('SHELFMARK_NOT_FOUND', detail === undefined ? {} : { detail });
}

export function gone(detail?: string): HttpError {
  return new HttpError('SHELFMARK_GONE', detail === undefined ? {} : { detail });
}
