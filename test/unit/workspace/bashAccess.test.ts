/**
 * What the bash tool tells the shell a command may do (the OS sandbox enforces it): read-only for
 * what only the read-only defaults allow (run with git's code-running configuration off), workspace access for what the user allowed; auto-allow
 * only while sandboxed; the unsandboxed notice once; a host request goes to the chat's question.
 */
import * as assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../../src/core/agent/tools';
import { BashTool, type BashToolOptions, type ShellRunOptions, type ShellSession } from '../../../src/core/workspace/bashTool';
import { withReadOnlyGit } from '../../../src/core/workspace/commandRules';
import { MAX_JUDGED_LENGTH } from '../../../src/core/workspace/shellCommands';

class FakeShell implements ShellSession {
  readonly runs: Array<{ command: string; options: ShellRunOptions }> = [];
  async run(command: string, options: ShellRunOptions) {
    this.runs.push({ command, options });
    if (command === 'npm install') {
      // Two connections to the same host at once, then one to another.
      const answers = await Promise.all([options.askNetwork?.('registry.npmjs.org', 443), options.askNetwork?.('registry.npmjs.org', 443), options.askNetwork?.('example.com', 443)]);
      options.onOutput(`network: ${answers.join(',')}\n`);
    }
    if (command === 'curl example.com') {
      const answer = await options.askNetwork?.('example.com', 443);
      options.onOutput(`network: ${answer ?? 'none'}\n`);
    }
    return { exitCode: 0 };
  }
  async restart() {}
  dispose() {}
}

function bed(overrides: Partial<BashToolOptions> = {}) {
  const shell = new FakeShell();
  const asked: ApprovalRequest[] = [];
  const tool = new BashTool({
    shell: () => shell,
    policy: () => ({ mode: 'rules' }),
    rules: () => ({ allow: ['npm test'], deny: ['rm'] }),
    approver: { ask: async (request) => (asked.push(request), 'once') },
    ...overrides,
  });
  const output: string[] = [];
  const run = (command: string) => tool.execute({ command }, { toolUseId: `t${shell.runs.length}`, onOutput: (t) => output.push(t) });
  return { shell, asked, output, run };
}

describe('bash tool: the access each command gets', () => {
  it('read-only defaults run read-only; user rules and approvals get workspace access; commands with no visible simple command are read-only', async () => {
    const b = bed();
    await b.run('ls -la');
    await b.run('npm test');
    await b.run('make');
    await b.run("[[ -v 'a[$(touch X)]' ]]");
    assert.deepEqual(
      b.shell.runs.map((r) => [r.command, r.options.access]),
      [[withReadOnlyGit('ls -la'), 'read-only'], ['npm test', 'workspace'], ['make', 'workspace'], ["[[ -v 'a[$(touch X)]' ]]", b.asked.length === 2 ? 'workspace' : 'read-only']],
    );
    assert.equal(b.asked[0].kind === 'command' && b.asked[0].command, 'make');
  });

  it('auto-allow runs unapproved commands with workspace access only while sandboxed; deny rules still refuse', async () => {
    let sandboxed = true;
    const b = bed({ sandboxed: () => sandboxed, autoAllow: () => true });
    await b.run('make');
    assert.equal(b.asked.length, 0);
    assert.equal(b.shell.runs[0].options.access, 'workspace');
    assert.match(String((await b.run('rm -rf x')).content), /deny rule "rm"/);
    sandboxed = false;
    await b.run('make');
    assert.equal(b.asked.length, 1, 'unsandboxed, auto-allow asks again');
    assert.equal(b.asked[0].kind === 'command' && b.asked[0].sandboxed, undefined);
  });

  it('auto-allow in the sandbox never runs a command the deny rules could not be checked against (too long, unparseable)', async () => {
    const b = bed({ sandboxed: () => true, autoAllow: () => true, approver: { ask: async () => 'deny' } });
    const tooLong = `${'ls | '.repeat(MAX_JUDGED_LENGTH / 5)}rm -rf x`;
    for (const command of [tooLong, 'rm -rf x; echo \u0080', 'rm -rf x; (']) {
      assert.match(String((await b.run(command)).content), /declined/, JSON.stringify(command.slice(-20)));
    }
    assert.deepEqual(b.shell.runs, [], 'nothing ran');
    // Without deny rules nothing could have matched: auto-allow runs it, in the sandbox.
    const noDeny = bed({ sandboxed: () => true, autoAllow: () => true, rules: () => ({ allow: [], deny: [] }) });
    await noDeny.run(tooLong);
    assert.equal(noDeny.shell.runs.length, 1);
  });

  it('a sandboxed approval question offers the chat-wide allow; the unsandboxed notice shows once', async () => {
    const sandboxedBed = bed({ sandboxed: () => true, autoAllow: () => false });
    await sandboxedBed.run('make');
    assert.equal(sandboxedBed.asked[0].kind === 'command' && sandboxedBed.asked[0].sandboxed, true);
    const plain = bed({ sandboxed: () => false, unsandboxedNotice: 'Commands run unsandboxed: no bwrap.' });
    await plain.run('ls');
    await plain.run('ls');
    assert.deepEqual(plain.output.filter((t) => t.includes('unsandboxed')), ['[Commands run unsandboxed: no bwrap.]\n']);
    // A card that said it before the choice: the output does not repeat it.
    const carded = bed({ sandboxed: () => false, unsandboxed: () => ({ mode: 'off' }), unsandboxedNotice: 'Commands run unsandboxed: off.', rules: () => ({ allow: [], deny: [] }) });
    await carded.run('make');
    await carded.run('make test');
    assert.equal(carded.asked.length, 2);
    assert.deepEqual(carded.output.filter((t) => t.includes('unsandboxed')), []);
  });

  it('a request for a host goes to askNetwork with the call and the host; without it, none is asked', async () => {
    const requests: unknown[] = [];
    const b = bed({ rules: () => ({ allow: ['*'], deny: [] }), askNetwork: async (request) => (requests.push(request), 'deny') });
    await b.run('curl example.com');
    assert.deepEqual(requests, [{ toolUseId: 't0', command: 'curl example.com', host: 'example.com', port: 443, program: 'curl' }]);
    assert.ok(b.output.includes('network: deny\n'));
    // A question still open when the command ends is withdrawn: its signal fires.
    let signal: AbortSignal | undefined;
    const late = bed({ rules: () => ({ allow: ['*'], deny: [] }), askNetwork: async (_request, s) => ((signal = s), 'once') });
    await late.run('curl example.com');
    assert.equal(signal?.aborted, true, 'the question is withdrawn when the command ends');
    const none = bed({ rules: () => ({ allow: ['*'], deny: [] }) });
    await none.run('curl example.com');
    assert.ok(none.output.includes('network: none\n'));
  });

  it('asks once per host while a command runs, however many connections it opens', async () => {
    const requests: string[] = [];
    const b = bed({ rules: () => ({ allow: ['*'], deny: [] }), askNetwork: async (request) => (requests.push(`${request.program} ${request.host}`), 'once') });
    await b.run('npm install');
    assert.deepEqual(requests, ['npm registry.npmjs.org', 'npm example.com']);
    assert.ok(b.output.includes('network: once,once,once\n'));
  });

  it('an unsandboxed command says why on its question and its result; the question says what "Always allow" cannot cover', async () => {
    const off = bed({ sandboxed: () => false, unsandboxed: () => ({ mode: 'off' }), rules: () => ({ allow: [], deny: [] }) });
    const result = await off.run('f=$(mktemp) && node src/cli.js add milk');
    const question = off.asked[0];
    assert.equal(question.kind, 'command');
    assert.deepEqual(question.kind === 'command' && question.unsandboxed, { mode: 'off' });
    assert.deepEqual(question.kind === 'command' && question.prefixes, ['mktemp', 'node src/cli.js']);
    assert.match(question.kind === 'command' ? question.stillAsks ?? '' : '', /sets variables/);
    assert.equal(result.detail?.kind === 'command' && result.detail.unsandboxed, true);
    const sandboxed = bed({ sandboxed: () => true, unsandboxed: () => ({ mode: 'off' }), rules: () => ({ allow: [], deny: [] }) });
    const inside = await sandboxed.run('make test');
    assert.equal(sandboxed.asked[0].kind === 'command' && sandboxed.asked[0].unsandboxed, undefined, 'sandboxed: nothing to warn about');
    assert.equal(inside.detail?.kind === 'command' && inside.detail.unsandboxed, undefined);
  });
});
