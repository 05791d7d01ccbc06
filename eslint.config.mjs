// Flat ESLint config. The determinism override is the guard that keeps everything the
// workflow bundle may load — src/workflows and the shared src/core — deterministic: no Node
// built-ins and no Node-only packages can be imported there (same idea as
// temporalio/samples-typescript .shared/.eslintrc.js). tests/unit/layers.test.ts checks that
// the bundle reaches no other folder, and that layers import only downward.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeOnlyPackages = ['mongoose', 'mongodb', 'ioredis', 'openai', 'express', 'pino', 'dotenv', 'gpt-tokenizer',
  '@temporalio/client', '@temporalio/worker', '@temporalio/activity', '@temporalio/testing'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.local/**', 'coverage/**', '.stryker-tmp/**', 'reports/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/workflows/**/*.ts', 'src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...nodeOnlyPackages].map((name) => ({
          name,
          message: 'Workflow code must stay deterministic: no Node built-ins or Node-only packages (use an activity).',
        })),
        patterns: [{ group: ['**/activities', '**/activities/*', '**/db/*', '**/api/*'], allowTypeImports: true,
          message: 'Workflow and core code import activities, db and api modules as types only.' }],
      }],
      'no-restricted-globals': ['error', { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() from @temporalio/workflow.' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Non-deterministic.' },
        { object: 'Date', property: 'now', message: 'Non-deterministic outside the workflow sandbox; use workflowInfo or pass time in.' }],
    },
  },
  {
    // Studio (the author's web app) runs in the browser; its own tsconfig (studio/tsconfig.json).
    files: ['studio/**/*.{ts,tsx,mts}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['tests/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
