/**
 * A CLI that is told to stop (SIGTERM, SIGHUP from a closed terminal, SIGINT) stops what it runs:
 * real processes, checked in the process table. `run`: the command and everything it started end,
 * the model gets no next turn, the sandbox's network bridge ends, the exit status says which
 * signal; a CLI killed outright (SIGKILL) takes a sandboxed command with it. `mcp` and `exec`:
 * what was read is answered and the server ends.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleCli, hasBwrap, REPO, runScriptedCli } from './support';

const CLI = path.join(REPO, 'out', 'test-cli', 'signals-cli.js');
const KEY = 'sk-ant-api03-SIGNALS-SUITE-KEY-9z8y7x6w5v';
const CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };


interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

function processes(): Proc[] {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }))
    .filter((p) => !p.args.startsWith('ps '));
}

const withTag = (tag: string) => processes().filter((p) => p.args.includes(tag));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls the process table (every 50 ms) until `check` holds; fails after `ms` saying what it saw. */
async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('claude-memory stops what it runs on SIGTERM, SIGHUP and SIGINT (real processes)', function () {
  this.timeout(120_000);
  let base: string;
  let ws: string;

  before(async () => {
    fs.mkdirSync(path.dirname(CLI), { recursive: true });
    await bundleCli(CLI);
  });
  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-signals-')));
    ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
  });
  /** Tags of this test's processes: whatever still carries one after the test is killed, by pid. */
  const tags: string[] = [];
  afterEach(() => {
    for (const p of tags.flatMap(withTag)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    tags.length = 0;
    fs.rmSync(base, { recursive: true, force: true });
  });
  const newTag = (from: number) => {
    const tag = `${Math.floor(Math.random() * 1e6) + from}`;
    tags.push(tag);
    return tag;
  };

  const env = () => ({ HOME: base, PATH: process.env.PATH, ANTHROPIC_API_KEY: KEY, XDG_STATE_HOME: path.join(base, 'state') });

  for (const mode of ['sandbox', 'no sandbox'] as const) {
    const sandboxed = mode === 'sandbox';
    const it_ = sandboxed && !hasBwrap ? it.skip : it;
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
      it_(`run (${mode}): ${signal} ends the command and all it started, gives the model no next turn${sandboxed ? ', ends the network bridge' : ''}, exits ${CODES[signal]}`, async () => {
        const tag = newTag(5_000_000);
        let cli: ChildProcess | undefined;
        let bridges: Proc[] = [];
        const outcome = runScriptedCli({
          cli: CLI,
          workspace: ws,
          commands: [`(setsid sleep ${tag} &); nohup sleep ${tag}1 >/dev/null 2>&1 & sleep ${tag}2; touch after-sleep`, 'touch NEXT-COMMAND'],
          flags: ['--allow-command', '*', ...(sandboxed ? [] : ['--no-sandbox'])],
          env: env(),
          onStart: (child) => (cli = child),
        });
        await until('the command to run', () => withTag(`${tag}2`).length > 0);
        if (sandboxed) bridges = processes().filter((p) => p.ppid === cli!.pid && p.args.includes('socat'));
        cli!.kill(signal);
        const { code, requests } = await outcome;
        assert.equal(code, CODES[signal]);
        await until('every process of the command to end', () => withTag(tag).length === 0, 5000).catch(() => undefined);
        assert.deepEqual(withTag(tag), [], 'a process of the command survived its CLI');
        assert.equal(requests, 1, 'the model was asked for a next turn');
        assert.equal(fs.existsSync(path.join(ws, 'NEXT-COMMAND')), false);
        assert.equal(fs.existsSync(path.join(ws, 'after-sleep')), false);
        if (sandboxed) {
          assert.ok(bridges.length > 0, 'no network bridge was seen while the command ran');
          for (const bridge of bridges) assert.equal(alive(bridge.pid), false, `the bridge ${bridge.args} survived`);
        }
      });
    }
  }

  (hasBwrap ? it : it.skip)('run (sandbox): a CLI killed outright (SIGKILL) takes its sandboxed command with it (bubblewrap is its child, --die-with-parent)', async () => {
    const tag = newTag(6_000_000);
    let cli: ChildProcess | undefined;
    const outcome = runScriptedCli({
      cli: CLI,
      workspace: ws,
      commands: [`(setsid sleep ${tag} &); sleep ${tag}1`],
      flags: ['--allow-command', '*'],
      env: env(),
      onStart: (child) => (cli = child),
    });
    await until('the command to run', () => withTag(`${tag}1`).length > 0);
    cli!.kill('SIGKILL');
    await outcome;
    await until('the sandboxed command to end with its CLI', () => withTag(tag).length === 0);
  });

  /** A store command (`mcp`, `exec`) as a real process with its stdin open. */
  function startStoreCommand(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
    const child = spawn(process.execPath, [CLI, ...args, '--workspace', ws], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr!.resume();
    const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    return { child, output: () => out, exited };
  }

  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`mcp: ${signal} ends the server with its stdin still open, exit ${CODES[signal]}`, async () => {
      const { child, output, exited } = startStoreCommand(['mcp']);
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
      await until('the answer to initialize', () => output().includes('"id":1'));
      child.kill(signal);
      assert.equal(await exited, CODES[signal]);
    });

    it(`exec: ${signal} lets the call in progress finish, runs no further line, exit ${CODES[signal]}`, async () => {
      const { child, output, exited } = startStoreCommand(['exec']);
      child.stdin!.write(`${JSON.stringify({ command: 'create', path: '/memories/first.md', file_text: 'one' })}\n`);
      await until('the first result', () => output().includes('\n'));
      child.kill(signal);
      const code = await exited;
      child.stdin!.destroy();
      assert.equal(code, CODES[signal]);
      assert.equal(fs.readFileSync(path.join(ws, '.claude-memories', 'first.md'), 'utf8'), 'one');
    });
  }
});
