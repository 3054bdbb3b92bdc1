// Accept-Language → the interface language. German unless the client prefers English.
import Negotiator from 'negotiator';
import type { Lang } from '../resource/types.ts';
import { firstRanges } from './format.ts';

const LANGS: Lang[] = ['de', 'en'];

export function negotiateLanguage(acceptLanguage: string | undefined): Lang {
  if (acceptLanguage === undefined || acceptLanguage.trim() === '') return 'de';
  const best = new Negotiator({ headers: { 'accept-language': firstRanges(acceptLanguage) } }).languages(
    LANGS,
  )[0];
  return best === 'en' ? 'en' : 'de';
}
