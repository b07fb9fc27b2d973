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

// A relative import that climbs to src/ and names a top-level folder there (used with a layer name).
const UP_TO_SRC = '^(\\.\\./)+';
// src/core imports nothing above it. Core files sit at least two folders below src/, so an
// import climbing two or more levels names a layer; one level is a sibling (core/session/features.ts).
const CORE_UPWARD = { regex: '^(\\.\\./){2,}(platform|ui|features|cli|extension)(/|$)', message: 'src/core depends on nothing above it (platform, ui, features, cli, extension).' };

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
    // The core is pure TypeScript: no VS Code, no direct file-system access, nothing above it.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: CORE_RESTRICTED_PATHS, patterns: [CORE_UPWARD] }],
    },
  },
  {
    // The memory engine knows nothing of the session model built on it (guards arrive as options).
    files: ['src/core/memory/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: CORE_RESTRICTED_PATHS,
        patterns: [CORE_UPWARD, { group: ['**/session', '**/session/**'], message: 'core/memory must not import core/session; pass guards as engine options.' }],
      }],
    },
  },
  {
    // platform: VS Code and Node adapters of the core's ports; it knows no view, command or feature.
    files: ['src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: UP_TO_SRC + '(features|ui|cli|extension)(/|$)', message: 'platform must not import the layers above it (ui, features, cli, extension).' }],
      }],
    },
  },
  {
    // ui: small helpers shared by the features' views and commands.
    files: ['src/ui/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ regex: UP_TO_SRC + '(features|cli|extension)(/|$)', message: 'ui is shared by the features: it must not import a feature, the CLI or the extension entry.' }],
      }],
    },
  },
  {
    // A feature uses core, platform, ui, its own files and other features' index (their public API) only.
    files: ['src/features/*/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '^\\.\\./[^./][^/]*/', message: "a feature must not reach into another feature's files: import its index ('../other')." },
          { regex: UP_TO_SRC + '(cli|extension)(/|$)', message: 'a feature must not import the CLI or the extension entry.' },
        ],
      }],
    },
  },
  {
    files: ['src/features/*/*/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { regex: '^\\.\\./\\.\\./[^./][^/]*/', message: "a feature must not reach into another feature's files: import its index ('../../other')." },
          { regex: UP_TO_SRC + '(cli|extension)(/|$)', message: 'a feature must not import the CLI or the extension entry.' },
        ],
      }],
    },
  },
  {
    // What the chat's webview script shares with the extension: pure, no vscode, nothing but the core.
    files: ['src/features/chat/shared/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'chat/shared is bundled into the webview: no vscode.' }],
        patterns: [{ regex: '^\\.\\./(?!\\.\\./\\.\\./core/)', message: 'chat/shared is bundled into the webview: import only its siblings and src/core.' }],
      }],
    },
  },
  {
    // The headless CLI: core and the Node adapters, never VS Code or the extension's layers.
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'the CLI runs without VS Code.' }],
        patterns: [{ regex: UP_TO_SRC + '(features|ui|extension|platform/(?!node/))', message: 'the CLI uses core and platform/node only.' }],
      }],
    },
  },
  {
    // The webview script runs in the page: it may share only the chat's pure protocol and the core.
    files: ['media/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'the webview runs in a browser page.' }],
        patterns: [{ regex: '^(\\.\\./)+src/(?!core/|features/chat/shared/)', message: 'the webview may import only src/core and src/features/chat/shared, never the extension.' }],
      }],
    },
  },
);
