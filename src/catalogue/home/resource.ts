// GET `/`: the home page with a few works from the catalogue (the first page of `/werke`).
import type { ResourceDefinition } from '../../http/resource/types.ts';
import type { WorkStore } from '../model.ts';
import { homeView, type HomeModel } from './view.ts';

export interface HomeOptions {
  readonly siteName?: string;
  /** How many works the home page shows (default 6). */
  readonly highlights?: number;
}

export function homeResource(works: WorkStore, opts: HomeOptions = {}): ResourceDefinition {
  return {
    name: 'home',
    path: '/',
    methods: {
      GET: async () => {
        const page = await works.list({ limit: opts.highlights ?? 6 });
        const model: HomeModel = { siteName: opts.siteName ?? 'Shelfmark', highlights: page.items };
        return {
          type: 'representation',
          representation: { model, view: homeView, canonicalPath: '/', schema: 'home' },
        };
      },
    },
  };
}
