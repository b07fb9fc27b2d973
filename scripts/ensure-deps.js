// Runs before `npm test` and `npm start`: installs the npm dependencies when they are missing or
// older than package-lock.json, then the real-VS Code test host (code-server, Chromium) into the
// machine-wide cache. Both steps do nothing when everything is already in place.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');
const stale = !fs.existsSync(stamp) || fs.statSync(stamp).mtimeMs < fs.statSync(lock).mtimeMs;
if (stale) {
  console.log('ensure-deps: npm ci');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}
execFileSync('bash', [path.join(__dirname, 'install-test-deps.sh')], { cwd: root, stdio: 'inherit' });
