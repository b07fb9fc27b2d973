/** Shared by the CLI process tests: building the CLI bundle they spawn. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { startMockMessagesApi, type MockStep } from '../../support/mockMessagesApi';

/** Whether bubblewrap is installed here (the sandboxed suites skip without it). */
export const hasBwrap = (() => {
  try {
    execFileSync('which', ['bwrap'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The repository root, four levels above out/test/unit/cli/. */
export const REPO = path.resolve(__dirname, '../../../..');

/**
 * Bundles src/cli/main.ts into `outfile` the way `npm run build` bundles dist/cli.js, fresh from
 * the current sources (dist/ may be stale). Build errors arrive in the rejection's message.
 */
export async function bundleCli(outfile: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { cliBuilds } = require(path.join(REPO, 'cliBundles.js')) as { cliBuilds: (root: string, outdir: string) => esbuild.BuildOptions[] };
  // The sandbox runtime finds its vendored helpers relative to its own module: point it at the
  // installed package (npm run build copies them next to dist/cli.js instead).
  const sandboxModule = JSON.stringify(pathToFileURL(path.join(REPO, 'node_modules/@anthropic-ai/sandbox-runtime/dist/sandbox/index.js')).href);
  // The four bundles side by side (cli.js loads cli-store.js, cli-run.js and cli-mcp.js from its folder).
  for (const options of cliBuilds(REPO, path.dirname(outfile))) {
    await esbuild.build({ ...options, ...(options.outfile?.endsWith(`${path.sep}cli.js`) ? { outfile } : {}), define: { ...options.define, 'import.meta.url': sandboxModule }, logLevel: 'silent' });
  }
  // As esbuild.js does for dist/: the bash parser's WebAssembly next to the bundles.
  for (const request of ['web-tree-sitter/tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
    fs.copyFileSync(require.resolve(request), path.join(path.dirname(outfile), path.basename(request)));
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <cli> ...args` in `cwd` with `stdin` (empty by default) and `env` (default: this process's) and collects its output. */
export function runCliProcess(cli: string, args: string[], cwd: string, stdin = '', env?: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

export interface ScriptedRun extends CliRun {
  /** tool_result contents the model was sent, in order. */
  results: string[];
  /** Requests the scripted API received (a model turn each). */
  requests: number;
}

export interface ScriptedRunOptions {
  /** The bundle to run (bundleCli). */
  cli: string;
  workspace: string;
  /** One bash call per model turn, then a closing text turn. */
  commands: string[];
  flags?: string[];
  /** The whole environment of the CLI (ANTHROPIC_BASE_URL is set here). */
  env: NodeJS.ProcessEnv;
  /** Default: the workspace. */
  cwd?: string;
  /** Told about the spawned CLI as soon as it runs (to signal it). */
  onStart?(child: ChildProcess): void;
}

/**
 * `claude-memory run --workspace W … go` as a real process against a scripted API whose model
 * runs `commands` one per turn: what the model was sent back is in `results`.
 */
export async function runScriptedCli(options: ScriptedRunOptions): Promise<ScriptedRun> {
  const script: MockStep[] = [
    ...options.commands.map((command, i) => ({ content: [{ type: 'tool_use' as const, id: `t${i}`, name: 'bash', input: { command } }] })),
    { content: [{ type: 'text' as const, text: 'done' }] },
  ];
  const server = await startMockMessagesApi(script);
  try {
    const child = spawn(process.execPath, [options.cli, 'run', '--workspace', options.workspace, ...(options.flags ?? []), 'go'], {
      cwd: options.cwd ?? options.workspace,
      env: { ...options.env, ANTHROPIC_BASE_URL: server.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    options.onStart?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c, signal) => resolve(c ?? (signal === null ? null : 128))));
    const results: string[] = [];
    for (const request of server.requests) {
      const messages = request.body.messages as Array<{ role: string; content: unknown }>;
      const last = messages[messages.length - 1];
      if (Array.isArray(last.content)) {
        for (const block of last.content as Array<{ type: string; content: unknown }>) if (block.type === 'tool_result') results.push(String(block.content));
      }
    }
    return { code, stdout, stderr, results, requests: server.requests.length };
  } finally {
    await server.close();
  }
}
