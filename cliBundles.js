// The CLI's bundles, shared by esbuild.js and the CLI tests (test/unit/cli/support.ts).
// `claude-memory` is four files: cli.js (the dispatcher only), cli-store.js (exec, history,
// restore, expire, checkpoints, rewind), cli-run.js (`run`: the Anthropic SDK, the agent, the shell
// parser) and cli-mcp.js (`mcp`: the MCP server, without the MCP SDK's runtime). main.ts requires the last three lazily; here those
// requires become loads of the sibling bundles (through the V8 code cache, src/cli/codeCache.ts),
// so a command compiles only what it uses.
const path = require('node:path');

const LAZY = { './run': './cli-run.js', './mcp/command': './cli-mcp.js', './storeCommands': './cli-store.js' };

/** @type {import('esbuild').Plugin} */
const lazyCommands = {
  name: 'lazy-cli-commands',
  setup(build) {
    build.onResolve({ filter: /^\.\/(run|mcp\/command|storeCommands)$/ }, (args) => {
      if (path.basename(args.importer) !== 'main.ts') return undefined;
      return { path: LAZY[args.path], external: true };
    });
  },
};

/** esbuild options for the four CLI bundles written to `outdir` (`cli.js` is the entry). */
function cliBuilds(root, outdir) {
  // The sandbox runtime (ESM, bundled as CommonJS) finds its vendored helpers next to its own file.
  const importMetaUrl = "const __importMetaUrl = require('url').pathToFileURL(__filename).href;";
  const common = { platform: 'node', format: 'cjs', target: 'node20', bundle: true, banner: { js: importMetaUrl }, define: { 'import.meta.url': '__importMetaUrl' } };
  // The bundles loaded through the code cache (vm.Script) cannot use `import()` on Node 20 (a cached
  // script loses its import callback): esbuild turns each into a require.
  const noDynamicImport = { supported: { 'dynamic-import': false } };
  return [
    { ...common, entryPoints: [path.join(root, 'src/cli/main.ts')], outfile: path.join(outdir, 'cli.js'), banner: { js: `#!/usr/bin/env node\n${importMetaUrl}` }, plugins: [lazyCommands] },
    { ...common, ...noDynamicImport, entryPoints: [path.join(root, 'src/cli/storeCommands.ts')], outfile: path.join(outdir, 'cli-store.js') },
    { ...common, entryPoints: [path.join(root, 'src/cli/run.ts')], outfile: path.join(outdir, 'cli-run.js') },
    { ...common, ...noDynamicImport, entryPoints: [path.join(root, 'src/cli/mcp/command.ts')], outfile: path.join(outdir, 'cli-mcp.js') },
  ];
}

module.exports = { cliBuilds };
