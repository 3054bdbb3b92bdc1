// What a refused hold answers: the problem details of each PlaceRefusal (docs/errors.md).
import { HttpError, notFound } from '../shared/index.ts';
import type { PlaceRefusal } from './model.ts';

export function invalidWerk(detail: string): HttpError {
  return new HttpError('SHELFMARK_VALIDATION_FAILED', {
    detail: 'The work to place a hold on is missing or unknown.',
    localDetail: {
      de: 'Das Werk fehlt oder ist in dieser Bibliothek unbekannt.',
      en: 'The work to place a hold on is missing or unknown.',
    },
    extensions: { errors: [{ field: 'werk', detail }] },
  });
}

export function placeRefusal(reason: PlaceRefusal): HttpError {
  switch (reason) {
    case 'copy-free':
      return new HttpError('SHELFMARK_COPY_AVAILABLE', {
        detail: 'A copy of this work is free: borrow it instead of placing a hold.',
        localDetail: {
          de: 'Ein Exemplar dieses Werks ist frei: Bitte leihen Sie es aus, statt es vorzumerken.',
          en: 'A copy of this work is free: borrow it instead of placing a hold.',
        },
      });
    case 'already-held':
      return new HttpError('SHELFMARK_CONFLICT', {
        detail: 'This member has already placed a hold on this work.',
        localDetail: {
          de: 'Diese Person hat dieses Werk bereits vorgemerkt.',
          en: 'This member has already placed a hold on this work.',
        },
      });
    case 'already-borrowed':
      return new HttpError('SHELFMARK_CONFLICT', {
        detail: 'This member has this work on loan.',
        localDetail: {
          de: 'Diese Person hat dieses Werk bereits ausgeliehen.',
          en: 'This member has this work on loan.',
        },
      });
    case 'unknown-work':
      return invalidWerk('names no work of this library');
    case 'work-gone':
      return invalidWerk('names a work that was deleted');
    case 'unknown-person':
      return notFound('There is no such member.');
  }
}
