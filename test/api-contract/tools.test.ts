// Issue 21: the served /openapi.json read by the tools client developers use, as npm
// devDependencies: Redocly's `recommended` rules (no error), openapi-typescript (types that
// compile and type the write bodies), and the typed client of docs/api.md (openapi-fetch),
// compiled with tsc and run against the real server. Turning one hoisted reference back into
// `#/$defs/…` (what the description served before) fails both tools.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { startCatalogue, type Catalogue } from '../acceptance/catalogue-server.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const ROOT = path.resolve(import.meta.dirname, '../..');
const REDOCLY = require.resolve('@redocly/cli/bin/cli.js');
const OPENAPI_TYPESCRIPT = path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const TSC = require.resolve('typescript/bin/tsc');
/** No telemetry, no update check: the tools run offline and the same each time. */
const QUIET = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_COLOR: '1',
};

/**
 * Warnings of the recommended rules that are known and right to keep: no licence (the catalogue
 * is private), `not: {required: [nach, vor]}` (valid JSON Schema: "not both"; the rule expects
 * the names among `properties` of the same object), and a server on 127.0.0.1 (the test's).
 */
const KNOWN_WARNINGS = new Set([
  'info-license',
  'no-required-schema-properties-undefined',
  'no-server-example.com',
]);

type LintReport = {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; severity: string }[];
};

type ToolRun = { code: number; stdout: string; stderr: string };

async function tool(args: string[], cwd: string): Promise<ToolRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, env: QUIET, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const lint = async (file: string, cwd: string) => {
  const r = await tool([REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file], cwd);
  return { ...r, report: JSON.parse(r.stdout) as LintReport };
};
const generate = (file: string, out: string, cwd: string) => tool([OPENAPI_TYPESCRIPT, file, '-o', out], cwd);
const tsc = (cwd: string) => tool([TSC, '-p', 'tsconfig.json'], cwd);

/** The ```ts block of docs/api.md after "## A typed client". */
function clientExample(): string {
  const guide = readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## A typed client'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code, 'docs/api.md has the typed client example');
  return code;
}

describe('the served description in Redocly, openapi-typescript and a typed client', () => {
  let c: Catalogue;
  let dir: string;
  let served: string;
  let generated: ToolRun;
  let compiled: ToolRun;
  /** tsc's complaints about one file ('' when none; any other failure counts for every file). */
  const errorsIn = (file: string) =>
    compiled.code === 0
      ? ''
      : (compiled.stdout + compiled.stderr)
          .split('\n')
          .filter((line) => line.startsWith(file) || !/^\w+\.ts\(/.test(line))
          .join('\n')
          .trim();

  before(async () => {
    c = await startCatalogue();
    served = await (await c.get('/openapi.json')).text();
    dir = mkdtempSync(path.join(tmpdir(), 'shelfmark-tools-'));
    writeFileSync(path.join(dir, 'openapi.json'), served);
    // The generated code imports openapi-fetch: the project's node_modules, beside it.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2024',
          module: 'nodenext',
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
        },
        include: ['*.ts'],
      }),
    );
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    // Generated and compiled once (tsc takes seconds): the code that types the write bodies and
    // the client example of docs/api.md.
    writeFileSync(
      path.join(dir, 'bodies.ts'),
      `import type { paths } from './shelfmark-api.d.ts';
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type NewWork = Json<paths['/werke']['post']['requestBody']>;
export const work: NewWork = { titel: 'Faust', jahr: 1808, person: ['goethe'] };
// @ts-expect-error: titel is required
export const untitled: NewWork = { jahr: 1808 };
// @ts-expect-error: jahr is a number
export const textYear: NewWork = { titel: 'Faust', jahr: '1808' };
type Patch = paths['/werke/{slug}']['patch']['requestBody']['content']['application/merge-patch+json'];
export const patch: Patch = { jahr: null };
type Created = paths['/werke']['post']['responses'][201]['content']['application/json'];
export const title = (w: Created): string => w.titel;
type Location = paths['/werke']['post']['responses'][201]['headers']['Location'];
export const location: Location = 'https://library.example/werke/faust';
// A renewal takes no body: the request body is optional.
type Renewal = paths['/ausleihen/{user_id}/{loan_id}/verlaengerung']['post']['requestBody'];
export const bare: Renewal = undefined;
`,
    );
    writeFileSync(path.join(dir, 'client.ts'), clientExample());
    generated = await generate('openapi.json', 'shelfmark-api.d.ts', dir);
    compiled = await tsc(dir);
  });
  after(async () => {
    await c?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('Redocly, recommended rules: no error, and only the known warnings', async () => {
    const { code, report } = await lint('openapi.json', dir);
    assert.equal(report.totals.errors, 0, JSON.stringify(report.problems, null, 2));
    assert.equal(code, 0);
    const unknown = report.problems.filter((p) => !KNOWN_WARNINGS.has(p.ruleId));
    assert.deepEqual(unknown, []);
  });

  test('openapi-typescript generates types that type the write bodies (tsc)', () => {
    assert.equal(generated.code, 0, generated.stderr);
    assert.equal(errorsIn('bodies.ts'), '');
  });

  test("docs/api.md's typed client compiles and runs against the real server", async () => {
    assert.equal(generated.code, 0, generated.stderr);
    assert.equal(errorsIn('client.ts'), '');
    const { stdout } = await run(process.execPath, ['client.ts'], {
      cwd: dir,
      env: { ...QUIET, SHELFMARK_URL: c.base, SHELFMARK_USER: 'personal', SHELFMARK_PASSWORD: 'personal' },
    });
    assert.match(stdout, /^found .*Faust/m);
    assert.match(stdout, /^created reise-um-die-welt Reise um die Welt$/m);
    assert.match(stdout, /^patched 1851$/m);
    assert.match(stdout, /^deleted 204$/m);
    assert.equal((await c.get('/werke/reise-um-die-welt')).status, 410);
  });

  test('one reference turned back into #/$defs/… fails both tools', async () => {
    const hoisted = /"\$ref": "#\/components\/schemas\/([a-z-]+)\.([a-z-]+)"/;
    const match = hoisted.exec(served);
    assert.ok(match, 'the description has a hoisted $defs reference');
    writeFileSync(path.join(dir, 'broken.json'), served.replace(hoisted, `"$ref": "#/$defs/${match[2]}"`));
    const { report } = await lint('broken.json', dir);
    assert.ok(report.totals.errors > 0);
    assert.ok(
      report.problems.some((p) => p.ruleId === 'no-unresolved-refs'),
      JSON.stringify(report.problems),
    );
    const generated = await generate('broken.json', 'broken.d.ts', dir);
    assert.notEqual(generated.code, 0);
    assert.match(generated.stdout + generated.stderr, /Can't resolve \$ref/);
  });
});
