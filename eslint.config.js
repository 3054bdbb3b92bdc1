// Flat config: typescript-eslint's recommended rules plus a layering rule that keeps
// src/http, src/logging and src/storage free of catalogue imports (design §2).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noCatalogue = {
  files: ['src/http/**/*.ts', 'src/logging/**/*.ts', 'src/storage/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/catalogue/**', '**/catalogue'],
            message: 'http, logging and storage never import the catalogue (design §2).',
          },
        ],
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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-new-func': 'error',
      'no-eval': 'error',
    },
  },
  noCatalogue,
);
