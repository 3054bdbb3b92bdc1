// GET `/`: the home page with a few works from the catalogue (the first page of `/werke`).
import type { ResourceDefinition } from '../../http/resource/types.ts';
import type { WorkStore } from '../model.ts';
import { homeView, type HomeModel } from './view.ts';
import { routeOf } from '../registry/index.ts';

export interface HomeOptions {
  readonly siteName?: string;
  /** How many works the home page shows (default 6). */
  readonly highlights?: number;
}

export function homeResource(works: WorkStore, opts: HomeOptions = {}): ResourceDefinition {
  return {
    name: 'home',
    path: routeOf('Home'),
    methods: {
      GET: async () => {
        // The newest acquisitions where the store knows them, not the first titles alphabetically.
        const limit = opts.highlights ?? 6;
        const highlights = works.newest ? await works.newest(limit) : (await works.list({ limit })).items;
        const model: HomeModel = { siteName: opts.siteName ?? 'Shelfmark', highlights };
        return {
          type: 'representation',
          representation: { model, view: homeView, canonicalPath: '/', schema: 'home' },
        };
      },
    },
  };
}
