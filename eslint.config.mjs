import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// What src/core may not import; repeated in every core block, since a later block's
// no-restricted-imports replaces an earlier one's for the files both match.
const CORE_RESTRICTED_PATHS = [
  { name: 'vscode', message: 'src/core must not depend on vscode; put VS Code glue in src/platform.' },
  { name: 'fs', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
  { name: 'fs/promises', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
  { name: 'node:fs', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
  { name: 'node:fs/promises', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'media/dist/**', 'node_modules/**', '.vscode-test/**', '.test-runs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The core is pure TypeScript: no VS Code, no direct file-system access.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: CORE_RESTRICTED_PATHS,
        patterns: [
          { group: ['**/platform/**', '**/views/**', '**/webviews/**', '**/cli/**'], message: 'src/core depends on nothing above it (its own memory/commands folder aside, the commands layer imports vscode and is caught above).' },
        ],
      }],
    },
  },
  {
    // One direction between layers: commands → views/webviews → platform → core.
    files: ['src/views/**/*.ts', 'src/webviews/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/commands/**'], message: 'views and webviews must not import commands: move what they share down to platform (or pass it in).' }],
      }],
    },
  },
  {
    files: ['src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/commands/**', '**/views/**', '**/webviews/**'], message: 'platform must not import the UI layers above it.' }],
      }],
    },
  },
  {
    // The memory engine knows nothing of the session model built on it (guards arrive as options).
    files: ['src/core/memory/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: CORE_RESTRICTED_PATHS,
        patterns: [{ group: ['**/session', '**/session/**'], message: 'core/memory must not import core/session; pass guards as engine options.' }],
      }],
    },
  },
);
