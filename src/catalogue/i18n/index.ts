// UI strings chosen by the negotiated language (German when nothing matches: the layer decides).
import type { Lang } from '../../http/resource/types.ts';
import { de, type Strings } from './de.ts';
import { en } from './en.ts';

export type { Strings };

export function strings(lang: Lang): Strings {
  return lang === 'en' ? en : de;
}
