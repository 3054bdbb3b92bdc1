// The benchmark catalogue: the demo authors plus N synthetic works, built once by
// `shelfmark demo --works N` and cached under tmp/bench-data/<key>/. The key hashes N and every
// source file that decides what the database holds (migrations, demo data, sort keys, search
// text, storage), so a schema or generator change rebuilds it and nothing else does. Each run
// copies the cached file into its own temporary data directory, so the cache stays pristine.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What the cached database depends on, relative to the repository root (folders recursively). */
export const CATALOGUE_SOURCES = [
  'src/catalogue/migrations',
  'src/catalogue/demo',
  'src/catalogue/persons/store.ts',
  'src/catalogue/works/store.ts',
  'src/catalogue/works/search-text.ts',
  'src/storage',
  'src/catalogue/transfer',
  'src/cli/database.ts',
];

function sourceFiles(root: string, rel: string): string[] {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [rel];
  return fs
    .readdirSync(full)
    .filter((name) => !name.endsWith('.test.ts'))
    .sort()
    .flatMap((name) => sourceFiles(root, path.join(rel, name)));
}

/** The cache key: works count and a hash of the sources above. */
export function catalogueKey(root: string, works: number): string {
  const hash = createHash('sha256');
  for (const rel of CATALOGUE_SOURCES.flatMap((r) => sourceFiles(root, r))) {
    hash.update(rel + '\0');
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update('\0');
  }
  return `${works}-works-${hash.digest('hex').slice(0, 12)}`;
}

/** Runs the shelfmark CLI with Node 24 (this process's node); rejects with its stderr. */
export function runShelfmark(root: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'src/cli/shelfmark.ts'), ...args], {
      cwd: root,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`shelfmark ${args.join(' ')} failed (${code}): ${err}`)),
    );
  });
}

/** The environment without Shelfmark's own variables, so a developer's settings can't leak in. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith('SHELFMARK_') || ['DATABASE_URL', 'PORT', 'HOST'].includes(name)) delete env[name];
  return env;
}

/**
 * Returns the cached SQLite file for `works` works, building it first when missing. Older cache
 * entries (other keys) are removed: each is ~50 MB.
 */
export async function cachedCatalogue(
  root: string,
  works: number,
  say: (m: string) => void,
): Promise<{ file: string; built: boolean }> {
  const cacheRoot = path.join(root, 'tmp', 'bench-data');
  const key = catalogueKey(root, works);
  const dir = path.join(cacheRoot, key);
  const file = path.join(dir, 'shelfmark.db');
  if (fs.existsSync(file)) return { file, built: false };
  fs.mkdirSync(cacheRoot, { recursive: true });
  const building = fs.mkdtempSync(path.join(cacheRoot, `.building-${key}-`));
  say(`building the ${works.toLocaleString('en')}-work catalogue into ${path.relative(root, dir)} …`);
  try {
    const out = await runShelfmark(root, [
      'demo',
      '--works',
      String(works),
      '--data-dir',
      building,
      '--log-dir',
      path.join(building, 'logs'),
    ]);
    say('  ' + out.trim());
    fs.rmSync(path.join(building, 'logs'), { recursive: true, force: true });
    for (const old of fs.readdirSync(cacheRoot))
      if (!old.startsWith('.')) fs.rmSync(path.join(cacheRoot, old), { recursive: true, force: true });
    fs.renameSync(building, dir); // atomic: a half-built catalogue never looks cached
  } catch (err) {
    fs.rmSync(building, { recursive: true, force: true });
    throw err;
  }
  return { file, built: true };
}

/** A fresh data directory holding a copy of the cached catalogue (and its secret). */
export function copyCatalogue(cachedFile: string, dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const from = path.dirname(cachedFile);
  for (const name of fs.readdirSync(from))
    if (name.startsWith('shelfmark.db') || name === 'secret')
      fs.copyFileSync(path.join(from, name), path.join(dataDir, name));
}
