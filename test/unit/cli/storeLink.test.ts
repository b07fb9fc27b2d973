/**
 * A repository that ships its memory folder as a symbolic link (`.claude-memories -> ../elsewhere`):
 * every CLI command that writes refuses it before anything is made, and nothing appears where the
 * link leads (checked on disk, real processes).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startMockMessagesApi } from '../../support/mockMessagesApi';
import { bundleCli, REPO, runCliProcess } from './support';

const CLI = path.join(REPO, 'out', 'test-cli', 'store-link-cli.js');

describe('a memory folder that is a symbolic link (CLI, real processes)', function () {
  this.timeout(120_000);
  let base: string;
  let ws: string;

  before(async function () {
    if (process.platform === 'win32') this.skip();
    fs.mkdirSync(path.dirname(CLI), { recursive: true });
    await bundleCli(CLI);
  });
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-store-link-')));
    ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  for (const target of ['an existing folder', 'nothing yet'] as const) {
    it(`exec, mcp and run refuse it and make nothing where it leads (${target})`, async () => {
      const elsewhere = path.join(base, 'elsewhere');
      if (target === 'an existing folder') fs.mkdirSync(elsewhere);
      fs.symlinkSync('../elsewhere', path.join(ws, '.claude-memories'));
      const untouched = () => (target === 'an existing folder' ? assert.deepEqual(fs.readdirSync(elsewhere), []) : assert.equal(fs.existsSync(elsewhere), false));

      const exec = await runCliProcess(CLI, ['exec', '--workspace', ws], base, `${JSON.stringify({ command: 'create', path: '/memories/a.md', file_text: 'x' })}\n`);
      assert.equal(exec.code, 1, exec.stdout);
      assert.match(exec.stderr, /symbolic link/);
      untouched();

      const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const mcp = await runCliProcess(CLI, ['mcp', '--workspace', ws], base, `${JSON.stringify(initialize)}\n`);
      assert.equal(mcp.code, 1, mcp.stderr);
      untouched();

      const server = await startMockMessagesApi([{ content: [{ type: 'tool_use', id: 't', name: 'memory', input: { command: 'create', path: '/memories/a.md', file_text: 'x' } }] }, { content: [{ type: 'text', text: 'ok' }] }]);
      try {
        const run = await runCliProcess(CLI, ['run', '--workspace', ws, 'go'], base, '', { ANTHROPIC_API_KEY: 'sk-ant-api03-STORE-LINK', ANTHROPIC_BASE_URL: server.url, HOME: base, PATH: process.env.PATH ?? '', XDG_STATE_HOME: path.join(base, 'state') });
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.stderr, /symbolic link/);
      } finally {
        await server.close();
      }
      untouched();
    });
  }
});
