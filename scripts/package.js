// `npm run package`: production bundles (minified, no source maps) and a .vsix made by @vscode/vsce
// from the bundles only (.vscodeignore keeps sources, tests and node_modules out). Prints the
// file list and size. Usage: node scripts/package.js [--out <file.vsix>] [--no-build]
// (--no-build packages the current dist/ as it is, e.g. from tests that must not rewrite dist/).
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const outArg = process.argv.indexOf('--out');
const out = path.resolve(root, outArg > 0 ? process.argv[outArg + 1] : 'dist-vsix/claude-workspace-memory.vsix');
fs.mkdirSync(path.dirname(out), { recursive: true });

const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
if (!process.argv.includes('--no-build')) {
  run([path.join(root, 'esbuild.js'), '--production']);
  // Production bundles have no source maps: drop stale ones so nothing refers to missing files.
  for (const map of ['dist/extension.js.map', 'dist/cli.js.map']) fs.rmSync(path.join(root, map), { force: true });
}
for (const bundle of ['dist/extension.js', 'dist/cli.js', 'media/dist/chat.js']) {
  if (!fs.existsSync(path.join(root, bundle))) throw new Error(`${bundle} is missing: run npm run build`);
}
run([
  require.resolve('@vscode/vsce/vsce'), 'package',
  '--no-dependencies', // esbuild bundled the runtime dependencies into dist/
  '--allow-missing-repository', // private project, no public repository URL to publish
  '--out', out,
]);
const kib = fs.statSync(out).size / 1024;
console.log(`vsix: ${path.relative(root, out)} ${kib.toFixed(1)} KiB`);
