// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import { detachedDocComment } from './scripts/eslint-rules/detached-doc-comment.mjs';
import { globalModuleReason } from './scripts/eslint-rules/global-module-reason.mjs';

export default tseslint.config(
  {
    ignores: [
      'eslint.config.mjs',
      '.ci/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'tmp/**',
      '*.config.js',
      'test/jest-e2e.config.js',
      // A team's package, built by its own tsconfig against the compiled service (extension-package e2e test).
      'test/fixtures/extension-package/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: {
      local: { rules: { 'detached-doc-comment': detachedDocComment, 'global-module-reason': globalModuleReason } },
    },
    rules: {
      'local/detached-doc-comment': 'error',
      'local/global-module-reason': 'error',
      'no-console': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Layering: the base (common, database, core) never reaches into the resource modules built on it, so a
    // module can be left out or replaced without the base breaking; migrations never run live module code.
    files: ['src/common/**/*.ts', 'src/database/**/*.ts', 'src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/modules/**', '../modules', '../../modules'],
              message: 'common, database and core must not import the resource modules (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    // The events module's public surface is its index (src/modules/events/index.ts): other modules and the
    // extension packages use what it exports, never its internals, so the module can be rearranged within.
    files: ['src/**/*.ts', 'examples/**/*.ts'],
    ignores: ['src/modules/events/**', 'src/common/**', 'src/database/**', 'src/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)modules/events/.|^(\\.\\./)+events/.|^\\./events/.',
              message: "import the events module's public surface ('…/modules/events'), not its internals.",
            },
          ],
        },
      ],
    },
  },
  {
    // An extension package imports the service from its public face only (src/extend, docs/extending.md):
    // the examples are written as a team's package would be, so they hold to it too.
    files: ['examples/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/(?!extend$)',
              message: "import the service's public face ('…/src/extend'), nothing deeper.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // supertest bodies are untyped JSON; tests assert on their shape.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Mocks stand in for async repository methods without awaiting anything.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-console': 'off',
    },
  },
  {
    // Lint rules of our own, loaded by this file as they are.
    files: ['scripts/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { sourceType: 'module', parserOptions: { projectService: false, project: null } },
  },
  {
    // Small Node scripts run before anything is compiled (npm run cli builds with one of them).
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { sourceType: 'commonjs', parserOptions: { projectService: false, project: null } },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      'no-undef': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
