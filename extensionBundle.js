// The extension's bundle (dist/extension.js), shared by esbuild.js and the unit test that checks
// what the packaged bundle exports (test/unit/structure/exports.test.ts).
const path = require('node:path');

/**
 * esbuild options for `<outdir>/extension.js`. `production` (`npm run package`): minified, no
 * source map, and `__TEST_HOOKS__` false, so activate()'s test hooks are dead code that esbuild
 * drops and the packaged extension exports nothing. The development bundle (`npm run build`, the
 * one the extension tests and `npm start` load) keeps them; they are returned only in
 * ExtensionMode.Test (src/extension.ts).
 */
function extensionBuild(root, outdir, { production }) {
  return {
    entryPoints: [path.join(root, 'src/extension.ts')],
    outfile: path.join(outdir, 'extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    minify: production,
    sourcemap: !production,
    banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__importMetaUrl', __TEST_HOOKS__: production ? 'false' : 'true' },
  };
}

module.exports = { extensionBuild };
