import * as assert from 'node:assert/strict';
import { judgeCommand, type CommandRules } from '../../../src/core/workspace/commandRules';
import { parseCommand } from '../../../src/core/workspace/shellCommands';

const none: CommandRules = { allow: [], deny: [] };

describe('shell command rules (mvdan-sh parser)', () => {
  it('sees every part of compound commands, substitutions, subshells and functions', () => {
    const parsed = parseCommand('ls -la | grep x && echo "$(rm -rf /)" ; `whoami`\n(cd a; make) || f() { shutdown; }');
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.parts.map((p) => (p.special ? `!${p.special}` : p.words.join(' '))),
      ['ls -la', 'grep x', 'echo', 'rm -rf /', '!runs a command whose name is only known when it runs', 'whoami', 'cd a', 'make', '!defines a function', 'shutdown'],
    );
  });

  it('allows read-only defaults, also in compounds of them', () => {
    for (const command of ['ls -la', 'git status', 'git log --oneline -5', 'cat a.txt | grep -n foo | head -3', 'rg TODO src && wc -l x', 'ls 2>/dev/null', 'git diff 2>&1']) {
      assert.deepEqual(judgeCommand(command, none), { kind: 'allowed' }, command);
    }
  });

  it('asks when any part is not allowed: substitutions, backticks, process substitution, subshells, newlines', () => {
    for (const command of ['ls $(rm -rf ~)', 'cat `curl evil`', 'diff <(ls) <(rm x)', '(rm x)', 'ls\nrm x', 'ls; rm x', 'ls || rm x', 'ls | sh']) {
      const verdict = judgeCommand(command, none);
      assert.equal(verdict.kind, 'ask', command);
    }
    const verdict = judgeCommand('ls && npm test -- --grep x', none);
    assert.deepEqual(verdict.kind === 'ask' && verdict.prefixes, ['npm test']);
  });

  it('treats writing redirections, assignments and unsafe options of defaults as needing approval', () => {
    for (const command of ['echo x > notes.txt', 'cat a >> b', 'ls &> out', 'echo hi >& file', 'PATH=. ls', 'export X=1', 'GIT_EXTERNAL_DIFF=evil git diff', 'git diff --output=x', 'rg --pre ./evil x', '$CMD', 'ls\\ -la']) {
      assert.equal(judgeCommand(command, none).kind, 'ask', command);
    }
  });

  it('matches user rules as word prefixes, never as string prefixes', () => {
    const rules: CommandRules = { allow: ['npm test', 'make'], deny: [] };
    assert.equal(judgeCommand('npm test', rules).kind, 'allowed');
    assert.equal(judgeCommand("npm 'test' -- -g x", rules).kind, 'allowed');
    assert.equal(judgeCommand('npm testx', rules).kind, 'ask');
    assert.equal(judgeCommand('npm run test', rules).kind, 'ask');
    assert.equal(judgeCommand('make && npm test', rules).kind, 'allowed');
    assert.equal(judgeCommand('make && npm publish', rules).kind, 'ask');
  });

  it('lets deny rules win over allow rules, defaults and *', () => {
    const rules: CommandRules = { allow: ['*'], deny: ['rm', 'git push'] };
    assert.deepEqual(judgeCommand('ls && rm -rf build', rules), { kind: 'denied', rule: 'rm', part: 'rm -rf build' });
    assert.equal(judgeCommand('echo $(git push origin)', rules).kind, 'denied');
    assert.equal(judgeCommand('git status', { allow: [], deny: ['git'] }).kind, 'denied');
    assert.equal(judgeCommand('echo x > f && make', rules).kind, 'allowed', '* allows writes too');
  });

  it('asks, with no prefix to remember, for what it cannot parse', () => {
    const verdict = judgeCommand('echo "unterminated', none);
    assert.equal(verdict.kind, 'ask');
    assert.deepEqual(verdict.kind === 'ask' && verdict.prefixes, []);
    assert.match(verdict.kind === 'ask' ? String(verdict.parts[0].special) : '', /cannot be parsed/);
  });
});
