// Flat config: typescript-eslint's recommended rules, the two type-aware promise rules, and the
// layering of docs/architecture.md enforced in every direction by a small local rule.
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;

// Which layer may import which (docs/architecture.md). A file belongs to the longest prefix
// that names it; an import is checked against the layer of the file it resolves to. test/,
// bench/ and this file belong to no layer and may import anything.
const LAYERS = {
  'src/config': [],
  'src/logging': [],
  'src/storage': [],
  // The raw HTTP server (Node's http, connection limits, the access-log line), below src/http.
  'src/server': ['src/logging'],
  // http knows no SQL, but it turns storage's error classes (busy, unavailable) into a 503.
  'src/http': ['src/logging', 'src/server', 'src/storage/errors.ts'],
  'src/catalogue': ['src/http', 'src/logging', 'src/storage'],
  'src/main.ts': ['src/config', 'src/logging', 'src/storage', 'src/server', 'src/http', 'src/catalogue'],
  'src/main.test.ts': ['src/main.ts', 'src/config'],
  'src/cli': [
    'src/main.ts',
    'src/config',
    'src/logging',
    'src/storage',
    'src/server',
    'src/http',
    'src/catalogue',
  ],
};
const PREFIXES = Object.keys(LAYERS).sort((a, b) => b.length - a.length);

/** The layer a repository-relative path belongs to, or null outside the layers. */
function layerOf(relative) {
  return PREFIXES.find((p) => relative === p || relative.startsWith(p + '/')) ?? null;
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layering of docs/architecture.md' },
    schema: [],
  },
  create(context) {
    const from = layerOf(path.relative(ROOT, context.filename).split(path.sep).join('/'));
    if (from === null) return {};
    const allowed = LAYERS[from];
    const check = (node) => {
      const spec = node?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return; // packages and node: builtins
      const target = path.resolve(path.dirname(context.filename), spec);
      const relative = path.relative(ROOT, target).split(path.sep).join('/');
      const to = layerOf(relative);
      if (to === null || to === from) return;
      // An allowed entry is a layer or a single file of one (see src/http's entry).
      if (allowed.some((a) => relative === a || relative.startsWith(a + '/'))) return;
      const may = allowed.length ? allowed.join(', ') : 'no other layer';
      context.report({
        node,
        message: `${from} must not import ${to} (it may import ${may}; docs/architecture.md).`,
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

// A feature folder of src/catalogue (docs/architecture.md, "Feature folders") is imported by
// other folders through its index.ts only, so the index is the feature's whole public surface
// and files behind it can move or split without touching their importers. test/ and bench/
// may reach behind an index (they test the parts); files inside the feature import each other.
const CATALOGUE = 'src/catalogue';

/** The feature folder a repository-relative path lies in, or null (outside, or a root file). */
function featureOf(relative) {
  if (!relative.startsWith(CATALOGUE + '/')) return null;
  const parts = relative.slice(CATALOGUE.length + 1).split('/');
  return parts.length > 1 ? parts[0] : null;
}

export const featureIndexRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Other folders import a catalogue feature through its index.ts only' },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    if (!file.startsWith('src/')) return {};
    const from = featureOf(file);
    const check = (node) => {
      const spec = node?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), spec);
      const relative = path.relative(ROOT, target).split(path.sep).join('/');
      const to = featureOf(relative);
      if (to === null || to === from || relative === `${CATALOGUE}/${to}/index.ts`) return;
      context.report({
        node,
        message: `Import ${CATALOGUE}/${to} through its index.ts, not ${relative} (docs/architecture.md).`,
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

// Production code in src/ never imports test code: fakes and helpers live in test/ (test/kit,
// test/support) and only the unit tests beside the code (*.test.ts) may import them. The
// layers rule above leaves test/ out of every layer, so it needs this rule beside it.
const noTestCode = {
  files: ['src/**/*.ts'],
  ignores: ['src/**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/test/**', '**/test', '**/*.test.ts'],
            message:
              'Production code never imports test code: helpers and fakes live in test/ (docs/testing.md).',
          },
        ],
      },
    ],
  },
};

// Production code writes no getters or setters in object literals: V8 gives such an object
// accessor descriptors it keeps in the old generation, so a literal made per request (as the
// handler's context was) keeps every young object its accessors' closures reach alive through
// each scavenge (ADR 0117). A class's accessors are on its prototype, made once.
const noAccessorLiterals = {
  files: ['src/**/*.ts'],
  ignores: ['src/**/*.test.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: "ObjectExpression > Property[kind='get'], ObjectExpression > Property[kind='set']",
        message:
          'No getter or setter in an object literal (ADR 0117): a data property, or a class whose accessors are on its prototype.',
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'logs/**', 'coverage/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    plugins: { shelfmark: { rules: { layers: layersRule, 'feature-index': featureIndexRule } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-new-func': 'error',
      'no-eval': 'error',
      'shelfmark/layers': 'error',
      'shelfmark/feature-index': 'error',
    },
  },
  {
    // Type-aware: a promise nobody awaits hides its rejection, and an async function where a
    // callback's return value is ignored (an event listener, a Node callback) does the same.
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: ROOT },
    },
    rules: {
      // node:test's test()/describe() hand their promise to the runner, which reports every
      // failure; only subtests (t.test) must be awaited, and the rule still checks those.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', name: ['test', 'it', 'describe', 'suite'], package: 'node:test' },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  noTestCode,
  noAccessorLiterals,
);
