// `npm run package`: a .vsix made by @vscode/vsce from production bundles (minified, no source
// maps). The bundles are built in a staging folder, so the working tree's dist/ (the development
// build other tests and `npm start` use) is never rewritten. .vscodeignore keeps sources, tests
// and node_modules out. Prints vsce's file list and the size.
// Usage: node scripts/package.js [--out <file.vsix>] [--quiet]
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const outArg = process.argv.indexOf('--out');
const out = path.resolve(outArg > 0 ? process.argv[outArg + 1] : path.join(root, 'dist-vsix', 'claude-workspace-memory.vsix'));
const quiet = process.argv.includes('--quiet');
fs.mkdirSync(path.dirname(out), { recursive: true });

const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'cwm-package-'));
const run = (args) => execFileSync(process.execPath, args, { cwd: stage, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'] });

try {
  // Manifest and docs as they are in the tree (docs/ ships: the README links into it).
  for (const file of ['package.json', 'README.md', 'LICENSE', '.vscodeignore', 'esbuild.js', 'cliBundles.js', 'extensionBundle.js', 'tsconfig.json']) {
    fs.copyFileSync(path.join(root, file), path.join(stage, file));
  }
  fs.cpSync(path.join(root, 'docs'), path.join(stage, 'docs'), { recursive: true });
  // Static media (icons, templates, css, vendored codicons); media/dist is rebuilt below.
  fs.mkdirSync(path.join(stage, 'media'));
  for (const entry of fs.readdirSync(path.join(root, 'media'))) {
    if (entry === 'dist' || entry === 'src') continue;
    fs.cpSync(path.join(root, 'media', entry), path.join(stage, 'media', entry), { recursive: true });
  }
  // Sources and packages are linked, not copied; esbuild follows the links.
  const links = [['src', 'src'], ['media/src', path.join('media', 'src')], ['node_modules', 'node_modules']];
  for (const [from, to] of links) fs.symlinkSync(path.join(root, from), path.join(stage, to));
  run([path.join(stage, 'esbuild.js'), '--production']);
  for (const [, to] of links) fs.unlinkSync(path.join(stage, to)); // keep vsce from walking them

  run([
    require.resolve('@vscode/vsce/vsce'), 'package',
    '--no-dependencies', // esbuild bundled the runtime dependencies into dist/
    '--allow-missing-repository', // private project, no public repository URL to publish
    // The README's links into docs/ stay relative (docs/ is in the package): without a repository
    // URL vsce would refuse to package a README with relative links rather than rewrite them.
    '--no-rewrite-relative-links',
    '--out', out,
  ]);
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
const kib = fs.statSync(out).size / 1024;
const shown = out.startsWith(root + path.sep) ? path.relative(root, out) : out;
console.log(`vsix: ${shown} ${kib.toFixed(1)} KiB`);
