// A copy of the application's source in a temporary directory (src/, package.json, and
// node_modules linked), so a test can break one of its files — a syntax error, a missing
// module — and mend it again while a real server runs from the copy. The repository's own
// files are never touched.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface AppCopy {
  readonly root: string;
  /** The absolute path of a file of the copy, e.g. `src/catalogue/home/index.ts`. */
  file(relative: string): string;
  /** Replaces a file's text; returns its absolute path. */
  write(relative: string, text: string): string;
  /** Puts the repository's version of the file back. */
  restore(relative: string): void;
  remove(): void;
}

export function copyApp(): AppCopy {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelfmark-copy-'));
  fs.cpSync(path.join(ROOT, 'src'), path.join(root, 'src'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(root, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  const file = (relative: string) => path.join(root, relative);
  return {
    root,
    file,
    write(relative, text) {
      fs.writeFileSync(file(relative), text);
      return file(relative);
    },
    restore(relative) {
      fs.copyFileSync(path.join(ROOT, relative), file(relative));
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** A module of the catalogue every worker loads; its version with a syntax error on line 2. */
export const HOME_INDEX = 'src/catalogue/home/index.ts';
export const BROKEN_HOME_INDEX = [
  "export { homeResource, type HomeOptions } from './resource.ts';",
  'export const broken = ;',
  "export { homeView, type HomeModel } from './view.ts';",
  '',
].join('\n');
