// Lint: typescript-eslint's recommended rules, and the type-aware ones that catch what a
// stream library cannot afford (a promise nobody awaits, a promise where a callback goes).
// Layout is prettier's (npm run format:check); eslint keeps the limits prettier does not: 120
// characters a line, comments and strings too (prettier wraps neither), and 400 lines a file.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const node = Object.fromEntries(
  [
    'process',
    'console',
    'URL',
    'Buffer',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'AbortController',
    'TextEncoder',
    'TextDecoder',
    'fetch',
    'structuredClone',
    'queueMicrotask',
    'performance',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'docs/api/',
      'coverage/',
      'test/fixtures/',
      'lib/kernel/validators.ts',
      'bench/.data/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: node },
    rules: {
      // Unused names are TypeScript's to report (noUnusedLocals); a leading _ marks one left out on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Terminal escapes are what the view writes and what the stderr stripper and the tests match.
      'no-control-regex': 'off',
      // docs/layout.md: no line over 120 characters, strings too (split them), and no file over 400 lines.
      'max-len': ['error', { code: 120 }],
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Hostile input on purpose: numbers past a double's range (1e400), loosely typed probes.
    files: ['test/**'],
    rules: { 'no-loss-of-precision': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
