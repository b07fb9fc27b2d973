// Bundles the extension (vscode external), the headless CLI and the chat webview script.
const esbuild = require('esbuild');
const { cliBuilds } = require('./cliBundles');
const { extensionBuild } = require('./extensionBundle');
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
  extensionBuild(__dirname, 'dist', { production }),
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

/**
 * The sandbox runtime's vendored binaries (seccomp helper per architecture, the JVM proxy agent):
 * bundled code looks for them in dist/vendor/.
 */
function copySandboxVendor() {
  const fs = require('node:fs');
  const path = require('node:path');
  const from = path.join(__dirname, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor');
  const to = path.join(__dirname, 'dist', 'vendor');
  for (const arch of ['x64', 'arm64']) {
    fs.mkdirSync(path.join(to, 'seccomp', arch), { recursive: true });
    fs.copyFileSync(path.join(from, 'seccomp', arch, 'apply-seccomp'), path.join(to, 'seccomp', arch, 'apply-seccomp'));
    fs.chmodSync(path.join(to, 'seccomp', arch, 'apply-seccomp'), 0o755);
  }
  fs.mkdirSync(path.join(to, 'java-proxy-agent'), { recursive: true });
  fs.copyFileSync(path.join(from, 'java-proxy-agent', 'srt-proxy-agent.jar'), path.join(to, 'java-proxy-agent', 'srt-proxy-agent.jar'));
}

async function main() {
  copyWasm();
  copySandboxVendor();
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
