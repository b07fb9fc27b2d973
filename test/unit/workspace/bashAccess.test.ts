/**
 * What the bash tool tells the shell a command may do (the OS sandbox enforces it): read-only for
 * what only the read-only defaults allow (run with git's code-running configuration off), workspace access for what the user allowed; auto-allow
 * only while sandboxed; the unsandboxed notice once; a host request goes to the chat's question.
 */
import * as assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../../src/core/agent/tools';
import { BashTool, type BashToolOptions, type ShellRunOptions, type ShellSession } from '../../../src/core/workspace/bashTool';
import { withReadOnlyGit } from '../../../src/core/workspace/commandRules';

class FakeShell implements ShellSession {
  readonly runs: Array<{ command: string; options: ShellRunOptions }> = [];
  async run(command: string, options: ShellRunOptions) {
    this.runs.push({ command, options });
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

  it('a sandboxed approval question offers the chat-wide allow; the unsandboxed notice shows once', async () => {
    const sandboxedBed = bed({ sandboxed: () => true, autoAllow: () => false });
    await sandboxedBed.run('make');
    assert.equal(sandboxedBed.asked[0].kind === 'command' && sandboxedBed.asked[0].sandboxed, true);
    const plain = bed({ sandboxed: () => false, unsandboxedNotice: 'Commands run unsandboxed: no bwrap.' });
    await plain.run('ls');
    await plain.run('ls');
    assert.deepEqual(plain.output.filter((t) => t.includes('unsandboxed')), ['[Commands run unsandboxed: no bwrap.]\n']);
  });

  it('a request for a host goes to askNetwork with the call and the host; without it, none is asked', async () => {
    const requests: unknown[] = [];
    const b = bed({ rules: () => ({ allow: ['*'], deny: [] }), askNetwork: async (request) => (requests.push(request), 'deny') });
    await b.run('curl example.com');
    assert.deepEqual(requests, [{ toolUseId: 't0', command: 'curl example.com', host: 'example.com', port: 443 }]);
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
});
