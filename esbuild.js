// Bundles the extension (vscode external), the headless CLI and the chat webview script.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

// The bash parser's WebAssembly (web-tree-sitter's runtime and the tree-sitter-bash grammar),
// loaded lazily by src/core/workspace/shellCommands.ts from next to the bundles.
const WASM = ['web-tree-sitter/tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'];
function copyWasm() {
  fs.mkdirSync('dist', { recursive: true });
  for (const request of WASM) fs.copyFileSync(require.resolve(request), path.join('dist', path.basename(request)));
}
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    entryPoints: ['media/src/chat.ts'],
    outfile: 'media/dist/chat.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    tsconfig: 'media/tsconfig.json',
  },
];

async function main() {
  copyWasm();
  for (const options of builds) {
    const ctx = await esbuild.context({
      bundle: true,
      minify: production,
      sourcemap: !production,
      logLevel: 'warning',
      ...options,
    });
    if (watch) await ctx.watch();
    else {
      await ctx.rebuild();
      await ctx.dispose();
    }
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
