/** Shared by the `claude-memory mcp` process tests: the bundled CLI, an SDK client on it, store snapshots. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO } from './support';

/** Bundled from the current sources by the tests' `before` (bundleCli). */
export const MCP_CLI = path.join(REPO, 'out', 'test-cli', 'mcp-cli.js');

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close(): Promise<void>;
}

/** Spawns `node <cli> mcp --workspace <dir> ...extra` and connects an SDK client (initialize included). */
export async function connectMcp(workspace: string, extra: string[] = []): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_CLI, 'mcp', '--workspace', workspace, ...extra],
    cwd: workspace,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

/**
 * Every file below `dir` with its content, for "the store is untouched" checks; the store lock's
 * own folder (.meta, made on the first write attempt) is not memory content.
 */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (rel === '.meta' || rel.startsWith(`.meta${path.sep}`)) continue;
    const full = path.join(dir, rel);
    out[rel] = fs.statSync(full).isDirectory() ? '<dir>' : fs.readFileSync(full, 'utf8');
  }
  return out;
}
