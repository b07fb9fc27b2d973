// Starts code-server (the real VS Code server + web workbench) for one test run, isolated in its
// own run folder, and stops its whole process group afterwards.
import { ChildProcess, execFile, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as path from 'path';
import { promisify } from 'util';
import {
  RunDirs, assertTestHostInstalled, codeServerEntry, codeServerNode, copyTree, isolatedEnv, makeRunDirs, removeRunDirs,
  repoRoot, sampleWorkspace,
} from './paths';

const execFileAsync = promisify(execFile);

/** How the extension gets into code-server. */
export type ExtensionSource =
  /** Loaded from the repository as an extension under development (needs the payload URL). */
  | { kind: 'development'; extensionDir?: string }
  /** Installed from a packaged .vsix with `--install-extension`, like a user would. */
  | { kind: 'vsix'; vsixPath: string }
  /** Not loaded at all. */
  | { kind: 'none' };

export const themes = { light: 'Default Light Modern', dark: 'Default Dark Modern' } as const;

export interface CodeServerOptions {
  /** Prefix of the run folder name under <temp>/cwm-test-runs/ (keep it short). */
  kind?: string;
  /** Folder copied fresh as the workspace (default test/fixtures/sample-workspace); null = empty window. */
  workspace?: string | null;
  /** Instead of one folder: these folders are copied and opened together as a multi-root workspace. */
  multiRoot?: string[];
  /** Extra environment for code-server; it reaches the extension host (e.g. a mock API URL). */
  env?: Record<string, string>;
  /** Default: CLAUDE_MEMORY_E2E_VSIX (if set) as a vsix, else development mode from the repo. */
  extension?: ExtensionSource;
  /** false = workspace trust stays on and the workspace opens in restricted mode. Default true. */
  trust?: boolean;
  /** Extra user settings merged over the defaults. */
  settings?: Record<string, unknown>;
  /** Colour theme: 'light', 'dark' or a theme label. */
  theme?: keyof typeof themes | string;
}

export interface CodeServer {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  dirs: RunDirs;
  /** The copied workspace folder, or the .code-workspace file for multi-root, or null. */
  workspacePath: string | null;
  /** The copied folders (one for a folder workspace, several for multi-root). */
  workspaceFolders: string[];
  extension: ExtensionSource;
  /** URL that opens the workbench on the workspace (with the development payload when needed). */
  workbenchUrl(extensionTestsPath?: string): string;
  /** Everything code-server printed so far. */
  output(): string;
  /** Concatenated extension host logs (activation lines, errors). */
  extensionHostLog(): string;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills every still-running code-server group when this process ends, however it ends. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) killGroup(child, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const child of live) killGroup(child, 'SIGKILL');
      process.exit(130);
    });
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function get(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(1000, () => req.destroy());
  });
}

export function defaultUserSettings(options: CodeServerOptions): Record<string, unknown> {
  const theme = options.theme ? (themes as Record<string, string>)[options.theme] ?? options.theme : undefined;
  return {
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'chat.commandCenter.enabled': false,
    'git.enabled': false,
    // VS Code 1.103 keeps a tree item's Markdown tooltip open over the rows below it, where it
    // swallows the next click; tests hover only on purpose.
    'workbench.hover.delay': 60_000,
    // Restricted-mode runs: no modal trust prompt; the workspace simply stays untrusted.
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'never',
    ...(theme ? { 'workbench.colorTheme': theme } : {}),
    ...options.settings,
  };
}

function defaultExtension(): ExtensionSource {
  const vsix = process.env.CLAUDE_MEMORY_E2E_VSIX;
  return vsix ? { kind: 'vsix', vsixPath: path.resolve(vsix) } : { kind: 'development' };
}

/** Installs a .vsix into the run's extensions folder with code-server's own CLI. */
export async function installVsix(dirs: RunDirs, vsixPath: string): Promise<void> {
  if (!fs.existsSync(vsixPath)) throw new Error(`vsix not found: ${vsixPath} (run npm run package)`);
  try {
    await execFileAsync(codeServerNode, [
      codeServerEntry, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
      '--install-extension', vsixPath, '--force',
    ], { env: isolatedEnv(dirs), timeout: 120_000 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`installing ${vsixPath} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

function prepareWorkspace(dirs: RunDirs, options: CodeServerOptions): { path: string | null; folders: string[] } {
  const wsRoot = path.join(dirs.root, 'ws');
  if (options.multiRoot && options.multiRoot.length > 0) {
    const folders = options.multiRoot.map((from, i) => {
      const to = path.join(wsRoot, `${i + 1}-${path.basename(from)}`);
      copyTree(from, to);
      return to;
    });
    const file = path.join(wsRoot, 'multi.code-workspace');
    fs.writeFileSync(file, JSON.stringify({ folders: folders.map((p) => ({ path: p })), settings: {} }, null, 2));
    return { path: file, folders };
  }
  if (options.workspace === null) return { path: null, folders: [] };
  const from = options.workspace ?? sampleWorkspace;
  const to = path.join(wsRoot, path.basename(from));
  copyTree(from, to);
  return { path: to, folders: [to] };
}

function readLogs(dir: string, match: (file: string) => boolean): string {
  if (!fs.existsSync(dir)) return '';
  const files = (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => match(f))
    .sort();
  return files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  assertTestHostInstalled();
  installExitHook();
  const dirs = makeRunDirs(options.kind ?? 'cs');
  const extension = options.extension ?? defaultExtension();
  const trust = options.trust ?? true;
  const workspace = prepareWorkspace(dirs, options);

  const userDir = path.join(dirs.userData, 'User');
  fs.mkdirSync(userDir, { recursive: true });
  fs.writeFileSync(path.join(userDir, 'settings.json'), JSON.stringify(defaultUserSettings(options), null, 2));

  if (extension.kind === 'vsix') await installVsix(dirs, extension.vsixPath);

  const port = await freePort();
  const args = [
    codeServerEntry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(trust ? ['--disable-workspace-trust'] : []),
  ];
  const logFile = path.join(dirs.logs, 'code-server.log');
  const out = fs.openSync(logFile, 'a');
  // detached = setsid: code-server and its file watcher / extension host share one process group.
  const child = spawn(codeServerNode, args, {
    cwd: dirs.home,
    env: isolatedEnv(dirs, options.env),
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  live.add(child);
  let exited: string | null = null;
  child.on('exit', (code, signal) => {
    exited = `code-server exited (code ${code}, signal ${signal})`;
  });

  const origin = `http://127.0.0.1:${port}`;
  const output = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup(child, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (child.pid !== undefined && groupAlive(child.pid) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    killGroup(child, 'SIGKILL');
    live.delete(child);
  };

  const deadline = Date.now() + 60_000;
  while ((await get(`${origin}/healthz`)) !== 200) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`${exited ?? 'code-server did not answer /healthz within 60 s'}\n${output().slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${p}`;
  return {
    port,
    origin,
    dirs,
    workspacePath: workspace.path,
    workspaceFolders: workspace.folders,
    extension,
    workbenchUrl(extensionTestsPath?: string) {
      const params = new URLSearchParams();
      if (workspace.path?.endsWith('.code-workspace')) params.set('workspace', workspace.path);
      else if (workspace.path) params.set('folder', workspace.path);
      else params.set('ew', 'true');
      const payload: [string, string][] = [];
      if (extension.kind === 'development') {
        payload.push(['extensionDevelopmentPath', remote(extension.extensionDir ?? repoRoot)]);
      }
      if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
      if (payload.length > 0) params.set('payload', JSON.stringify(payload));
      return `${origin}/?${params.toString()}`;
    },
    output,
    extensionHostLog: () => readLogs(path.join(dirs.userData, 'logs'), (f) => /exthost/i.test(f) && f.endsWith('.log')),
    stop,
  };
}

/** Stops the server and deletes its run folder unless the run failed (then the logs stay). */
export async function disposeCodeServer(server: CodeServer, failed: boolean): Promise<void> {
  await server.stop();
  if (!failed) removeRunDirs(server.dirs);
}

