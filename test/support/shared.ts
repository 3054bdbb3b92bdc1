// Where the project's shared ground truth lives: `../shared` beside the repository (as CI lays
// it out), or SHELFMARK_SHARED_DIR when it is somewhere else.
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export const SHARED_DIR = process.env.SHELFMARK_SHARED_DIR ?? path.resolve(REPO_ROOT, '../shared');

/** Apache's recorded cases, grok patterns and the GoAccess checker. */
export const APACHE_DIR = path.join(SHARED_DIR, 'apache');
