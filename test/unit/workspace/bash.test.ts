import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AgentToolResult, ApprovalDecision, ApprovalRequest } from '../../../src/core/agent/tools';
import { BashTool, type BashToolOptions } from '../../../src/core/workspace/bashTool';
import { PersistentShell } from '../../../src/platform/node/persistentShell';
import { BENIGN_STRINGS, SECRET_FORMATS } from '../../support/secretFormats';

interface Bed {
  dir: string;
  tool: BashTool;
  shells: PersistentShell[];
  asked: ApprovalRequest[];
  remembered: string[][];
  run(input: unknown, options?: { signal?: AbortSignal; onOutput?: (t: string) => void }): Promise<AgentToolResult>;
}

function alive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('bash tool over a persistent shell', function () {
  this.timeout(20_000);
  let bed: Bed;
  const beds: Bed[] = [];

  function makeBed(overrides: Partial<BashToolOptions> & { decision?: ApprovalDecision } = {}): Bed {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bash-')));
    const shells: PersistentShell[] = [];
    const asked: ApprovalRequest[] = [];
    const remembered: string[][] = [];
    const tool = new BashTool({
      shell: () => {
        const shell = new PersistentShell({ cwd: dir });
        shells.push(shell);
        return shell;
      },
      policy: () => ({ mode: 'rules' }),
      rules: () => ({ allow: ['*'], deny: [] }),
      approver: {
        ask: async (request) => {
          asked.push(request);
          return overrides.decision ?? 'once';
        },
      },
      remember: (prefixes) => remembered.push([...prefixes]),
      ...overrides,
    });
    let n = 0;
    const made: Bed = {
      dir,
      tool,
      shells,
      asked,
      remembered,
      run: (input, options = {}) => tool.execute(input, { toolUseId: `toolu_${++n}`, signal: options.signal, onOutput: options.onOutput ?? (() => undefined) }),
    };
    beds.push(made);
    return made;
  }

  afterEach(() => {
    for (const b of beds.splice(0)) {
      b.tool.dispose();
      fs.rmSync(b.dir, { recursive: true, force: true });
    }
  });

  it('keeps the working directory and variables between commands, streams output, reports the exit code', async () => {
    bed = makeBed();
    fs.mkdirSync(path.join(bed.dir, 'sub'));
    assert.equal((await bed.run({ command: 'cd sub && export GREETING=hi' })).is_error, false);
    const chunks: string[] = [];
    const result = await bed.run({ command: 'pwd; echo "$GREETING"; echo oops >&2; false' }, { onOutput: (t) => chunks.push(t) });
    assert.equal(result.is_error, false);
    assert.equal(result.content, `${bed.dir}/sub\nhi\noops\n[exit code 1]`);
    assert.equal(chunks.join(''), `${bed.dir}/sub\nhi\noops\n`);
    assert.deepEqual(result.detail, { kind: 'command', command: 'pwd; echo "$GREETING"; echo oops >&2; false', exitCode: 1 });
    const restarted = await bed.run({ restart: true });
    assert.equal(restarted.is_error, false);
    assert.equal((await bed.run({ command: 'pwd' })).content, bed.dir);
  });

  it('a command\'s environment holds no secret of the host, by name or by value (what a real process sees, on disk)', async () => {
    const planted: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.homedir(), PLAIN_SETTING: 'hello world' };
    // Every format under a name that says nothing (an API key exported as X, a DATABASE_URL), and under a secret's name.
    SECRET_FORMATS.forEach((f, i) => {
      planted[`CM_VALUE_${i}`] = f.line;
      planted[`MY_SERVICE_TOKEN_${i}`] = f.secret;
    });
    BENIGN_STRINGS.forEach((b, i) => (planted[`CM_BENIGN_${i}`] = b.text));
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cm-env-')));
    const shell = new PersistentShell({ cwd: dir, env: planted });
    try {
      const result = await shell.run('env > seen.txt', { timeoutMs: 10_000, onOutput: () => undefined, access: 'workspace' });
      assert.equal(result.exitCode, 0);
      const seen = fs.readFileSync(path.join(dir, 'seen.txt'), 'utf8');
      for (const f of SECRET_FORMATS) assert.ok(!seen.includes(f.secret), `${f.name} reached the command`);
      assert.ok(!/CM_VALUE_|MY_SERVICE_TOKEN_/.test(seen));
      assert.match(seen, /^PLAIN_SETTING=hello world$/m);
      BENIGN_STRINGS.forEach((b, i) => assert.ok(seen.includes(`CM_BENIGN_${i}=${b.text}\n`), `${b.name} was dropped`));
    } finally {
      shell.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the head and the tail of a 10 MB output within the cap and says what was cut', async () => {
    bed = makeBed({ outputCap: 2_000 });
    let streamed = 0;
    const result = await bed.run({ command: "head -c 10000000 /dev/zero | tr '\\0' a; echo; echo THE-END" }, { onOutput: (t) => (streamed += t.length) });
    const text = String(result.content);
    assert.equal(result.is_error, false);
    assert.ok(text.length < 2_400, `kept ${text.length} characters`);
    assert.match(text, /^a{1000}\n\[\.\.\. 9,998,\d{3} characters of output cut here; 10,000,009 in all/);
    assert.match(text, /THE-END$/);
    assert.ok(streamed <= 512 * 1024 + 200, 'live output is capped too');
  });

  it('ends a command that outlives the timeout, says so, and the next command runs in a fresh shell', async () => {
    bed = makeBed({ timeoutMs: () => 300 });
    await bed.run({ command: 'cd /' });
    const result = await bed.run({ command: 'echo before; sleep 30' });
    assert.equal(result.is_error, true);
    assert.match(String(result.content), /^before\n\[The command was stopped after 0.3 s, the per-command timeout/);
    assert.equal(result.detail?.kind === 'command' && result.detail.ended, 'timeout');
    assert.equal((await bed.run({ command: 'pwd' })).content, bed.dir);
  });

  it('Stop kills the whole process tree of a running command', async () => {
    bed = makeBed();
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => {
      void bed
        .run({ command: 'sleep 60 & sh -c "sleep 61" & echo started; wait' }, { signal: controller.signal, onOutput: (t) => t.includes('started') && resolve() })
        .then((r) => results.push(r));
    });
    const results: AgentToolResult[] = [];
    await started;
    const pgid = bed.shells[0].pid!;
    assert.ok(alive(pgid));
    controller.abort();
    await new Promise<void>((resolve) => {
      const check = () => (results.length > 0 ? resolve() : setImmediate(check));
      check();
    });
    assert.equal(results[0].is_error, true);
    assert.match(String(results[0].content), /The user stopped the command/);
    // SIGKILL to the group is synchronous to deliver; reaping may lag, so poll the group briefly.
    for (let i = 0; i < 200 && alive(pgid); i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(alive(pgid), false, 'no process of the group survives');
  });

  it('runs only what the approver allows; Deny returns the declined sentence and runs nothing', async () => {
    bed = makeBed({ rules: () => ({ allow: [], deny: [] }), decision: 'deny' });
    const result = await bed.run({ command: 'touch made.txt' });
    assert.equal(result.is_error, true);
    assert.equal(result.content, 'Error: the user declined to run this command; nothing was run.');
    assert.equal(fs.existsSync(path.join(bed.dir, 'made.txt')), false);
    assert.deepEqual(bed.asked, [{ kind: 'command', toolUseId: 'toolu_1', command: 'touch made.txt', prefixes: ['touch'] }]);
    assert.equal((await bed.run({ command: 'ls' })).is_error, false, 'a default read-only command does not ask');
    assert.equal(bed.asked.length, 1);
  });

  it('remembers the prefixes of an "Always allow" and refuses deny-rule matches without asking', async () => {
    bed = makeBed({ rules: () => ({ allow: [], deny: ['rm'] }), decision: 'always' });
    assert.equal((await bed.run({ command: 'touch a.txt && ls' })).is_error, false);
    assert.deepEqual(bed.remembered, [['touch']]);
    const denied = await bed.run({ command: 'ls; rm a.txt' });
    assert.match(String(denied.content), /matches the deny rule "rm"/);
    assert.equal(bed.asked.length, 1);
    assert.ok(fs.existsSync(path.join(bed.dir, 'a.txt')));
  });

  it('"Always allow" with one chosen rule remembers that rule only; Deny sends the user\'s reason to Claude', async () => {
    bed = makeBed({
      rules: () => ({ allow: [], deny: [] }),
      approver: { ask: async (request) => (request.kind === 'command' && request.command.startsWith('touch') ? { decision: 'always', rule: 'make all' } : { decision: 'deny', reason: 'use yarn, not npm' }) },
    });
    assert.match(String((await bed.run({ command: 'touch b.txt && make all' })).content), /exit code/, 'it ran (make finds no makefile here)');
    assert.ok(fs.existsSync(path.join(bed.dir, 'b.txt')));
    assert.deepEqual(bed.remembered, [['make all']]);
    const denied = await bed.run({ command: 'npm install' });
    assert.equal(denied.content, 'Error: the user declined to run this command; nothing was run. The user said: use yarn, not npm');
  });

  it('refuses with the host\'s sentence without an approver, in Restricted Mode, and where no shell can run', async () => {
    bed = makeBed({ rules: () => ({ allow: [], deny: [] }), approver: undefined, notAllowed: (p) => `Error: run again with --allow-command "${p[0]}".` });
    assert.equal((await bed.run({ command: 'make test' })).content, 'Error: run again with --allow-command "make test".');
    const restricted = makeBed({ policy: () => ({ mode: 'refuse', reason: 'Error: Restricted Mode.' }) });
    assert.equal((await restricted.run({ command: 'ls' })).content, 'Error: Restricted Mode.');
    const virtual = new BashTool({ policy: () => ({ mode: 'rules' }), rules: () => ({ allow: ['*'], deny: [] }), unavailable: 'Error: no shell for virtual folders.' });
    assert.equal((await virtual.execute({ command: 'ls' }, { toolUseId: 't', onOutput: () => undefined })).content, 'Error: no shell for virtual folders.');
    assert.equal(restricted.shells.length + bed.shells.length, 0, 'no shell was even started');
  });
});
