// Bundles the extension (vscode external), the headless CLI and the chat webview script.
const esbuild = require('esbuild');
const { cliBuilds } = require('./cliBundles');
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
  ...cliBuilds(__dirname, 'dist'),
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
