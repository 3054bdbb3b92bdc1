// Finding and selecting test files for test/run.ts; kept apart so it can be unit-tested.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// Only folders that never hold the project's tests. The walk starts at src/, test/ and bench/, so the
// runtime folders at the top of the checkout (data/, logs/, tmp/) are never reached; naming
// them here would also hide test folders of the same name (test/logs/ was silently skipped).
const SKIP_DIRS = new Set(['node_modules']);

/** Every `*.test.ts` under the given folders of `root`, sorted; node_modules and dot-folders are left out. */
export function findTestFiles(root: string, folders: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a folder that does not exist (yet) holds no tests
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(full);
      } else if (entry.isFile() && entry.name.endsWith('.test.ts')) found.push(full);
    }
  };
  for (const folder of folders) walk(path.join(root, folder));
  return found.sort();
}

/**
 * Narrows `files` by command-line filters: an existing file or folder (relative to `cwd`)
 * selects the tests in it; any other text selects files whose path (relative to `root`)
 * contains it. No filters select everything. Filters that select nothing are reported.
 */
export function selectTestFiles(
  root: string,
  files: string[],
  filters: string[],
  cwd: string,
): { files: string[]; unmatched: string[] } {
  if (filters.length === 0) return { files, unmatched: [] };
  const selected = new Set<string>();
  const unmatched: string[] = [];
  for (const filter of filters) {
    const matches = files.filter((file) => matchesFilter(root, file, filter, cwd));
    if (matches.length === 0) unmatched.push(filter);
    for (const match of matches) selected.add(match);
  }
  return { files: files.filter((f) => selected.has(f)), unmatched };
}

function matchesFilter(root: string, file: string, filter: string, cwd: string): boolean {
  const asPath = path.resolve(cwd, filter);
  if (isDirectory(asPath)) return file.startsWith(asPath + path.sep);
  if (asPath === file) return true;
  const relative = path.relative(root, file).split(path.sep).join('/');
  return relative.includes(filter.split(path.sep).join('/'));
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
