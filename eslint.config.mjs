import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
        paths: [
          { name: 'vscode', message: 'src/core must not depend on vscode; put VS Code glue in src/platform.' },
          { name: 'fs', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
          { name: 'fs/promises', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
          { name: 'node:fs', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
          { name: 'node:fs/promises', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
        ],
      }],
    },
  },
  {
    // The memory engine knows nothing of the session model built on it (guards arrive as options).
    files: ['src/core/memory/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'vscode', message: 'src/core must not depend on vscode; put VS Code glue in src/platform.' },
          { name: 'fs', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
          { name: 'fs/promises', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
          { name: 'node:fs', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
          { name: 'node:fs/promises', message: 'src/core must not touch the file system; use MemoryFileSystem.' },
        ],
        patterns: [{ group: ['**/session', '**/session/**'], message: 'core/memory must not import core/session; pass guards as engine options.' }],
      }],
    },
  },
);
