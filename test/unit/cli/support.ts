/** Shared by the CLI process tests: building the CLI bundle they spawn. */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

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

/** Runs `node <cli> ...args` in `cwd` with `stdin` (empty by default) and collects its output. */
export function runCliProcess(cli: string, args: string[], cwd: string, stdin = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
