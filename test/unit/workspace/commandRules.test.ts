import * as assert from 'node:assert/strict';
import { judgeCommand, prefixOf, type CommandRules } from '../../../src/core/workspace/commandRules';
import { loadShellParser, MAX_JUDGED_LENGTH, unjudgeable, type ShellParser } from '../../../src/core/workspace/shellCommands';

const none: CommandRules = { allow: [], deny: [] };

describe('shell command rules (tree-sitter-bash parser)', () => {
  let parser: ShellParser;
  before(async () => {
    parser = await loadShellParser();
  });

  it('sees every part of compound commands, substitutions, subshells and functions', () => {
    const parsed = parser.parse('ls -la | grep x && echo "$(rm -rf /)" ; `whoami`\n(cd a; make) || f() { shutdown; }');
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.parts.map((p) => (p.special ? `!${p.special}` : p.words.join(' '))),
      ['ls -la', 'grep x', 'echo', 'rm -rf /', '!runs a command whose name is only known when it runs', 'whoami', 'cd a', 'make', '!defines a function', 'shutdown'],
    );
  });

  it('allows read-only defaults, also in compounds of them', async () => {
    for (const command of ['ls -la', 'git status', 'git log --oneline -5', 'cat a.txt | grep -n foo | head -3', 'rg TODO src && wc -l x', 'ls 2>/dev/null', 'git diff 2>&1', 'echo "$HOME" ${USER}', 'file a.png']) {
      assert.equal((await judgeCommand(command, none)).kind, 'allowed', command);
    }
  });

  it('asks when any part is not allowed: substitutions, backticks, process substitution, subshells, newlines', async () => {
    for (const command of ['ls $(rm -rf ~)', 'cat `curl evil`', 'diff <(ls) <(rm x)', '(rm x)', 'ls\nrm x', 'ls; rm x', 'ls || rm x', 'ls | sh', '{ rm x; }', 'cat <<EOF\n$(rm x)\nEOF']) {
      const verdict = await judgeCommand(command, none);
      assert.equal(verdict.kind, 'ask', command);
    }
    const verdict = await judgeCommand('ls && npm test -- --grep x', none);
    assert.deepEqual(verdict.kind === 'ask' && verdict.prefixes, ['npm test']);
  });

  it('treats writing redirections, assignments and unsafe options of defaults as needing approval', async () => {
    for (const command of ['echo x > notes.txt', 'cat a >> b', 'ls &> out', 'echo hi >& file', 'PATH=. ls', 'export X=1', 'GIT_EXTERNAL_DIFF=evil git diff', 'git diff --output=x', 'rg --pre ./evil x', '$CMD', 'ls\\ -la', 'for PATH in .; do ls; done', 'unset PATH']) {
      assert.equal((await judgeCommand(command, none)).kind, 'ask', command);
    }
  });

  it('never auto-allows [[ ]], arithmetic, parameter operators, subscripts, /dev/tcp, fd duplication or file -C', async () => {
    const hostile = [
      "[[ -v 'a[$(touch X)]' ]]",
      "[ -v 'a[$(touch X)]' ]",
      "echo ${X='$(touch X)'}${X@P}",
      "echo ${Y='a[$(touch X)]'} $((Y))",
      "(( Z='a[$(touch X)]' ))",
      'echo ${!X}',
      'echo ${a[X]}',
      'echo ${HOME:X}',
      'echo ${X:=y}',
      'echo $[X]',
      'echo $((1+2))',
      'for ((i=0; i<1; i++)); do ls; done',
      'cat secret 0</dev/tcp/127.0.0.1/9 >&0',
      'cat secret > /dev/udp/127.0.0.1/9',
      'cat < /dev/tcp/127.0.0.1/9',
      'ls >&3',
      'cat <&3',
      'cat < "$F"',
      'ls 1>&-',
      'file -C -m x',
      'file --compile -m x',
    ];
    for (const command of hostile) {
      const verdict = await judgeCommand(command, none);
      assert.equal(verdict.kind, 'ask', command);
    }
    // Plain expansions stay read-only.
    assert.equal((await judgeCommand('echo ${HOME} $HOME "$1" 2>&1 >&2', none)).kind, 'allowed');
  });

  it('never auto-allows reading another process\'s environment, credential places, or outside the workspace by glob or recursion', async () => {
    const hostile = [
      'cat /proc/$PPID/environ',
      'cat < /proc/1/environ',
      'cat /pro""c/self/environ',
      'cat /pro${E}c/1/envi${E}ron',
      'cat /p*c/$PPID/env*',
      'head -c 9999 /???c/1/e*',
      'cat ../../../../proc/$PPID/environ',
      'cat ~/.ssh/id_ed25519',
      'cat $HOME/.aws/credentials',
      'cat ~/.config/gh/hosts.yml',
      'grep -r sk-ant /',
      'grep -rn sk-ant ../..',
      'rg sk-ant ~',
      'ls -R /',
      'cat < /dev/t"c"p/127.0.0.1/9',
      'cat < /dev/tc${E}p/127.0.0.1/9',
    ];
    for (const command of hostile) assert.equal((await judgeCommand(command, none)).kind, 'ask', command);
    for (const command of ['grep -rn foo src', 'cat src/*.ts', 'ls -la', 'cat /etc/os-release', 'rg TODO', 'git log -p -- src', 'du -sh node_modules']) {
      assert.equal((await judgeCommand(command, none)).kind, 'allowed', command);
    }
  });

  it('refuses to judge control characters and text that is not well-formed UTF-16, also against deny rules and *', async () => {
    const inputs = ['echo \u0080; touch X', 'echo \u009b; touch X', 'echo \u0000; touch X', 'echo a\rtouch X', 'echo \u007f; touch X', 'echo \ud800; touch X', 'echo \udc00; touch X', 'echo x\u001b[2J; rm -rf y'];
    for (const command of inputs) {
      assert.ok(unjudgeable(command), JSON.stringify(command));
      const parsed = parser.parse(command);
      assert.equal(parsed.ok, false, JSON.stringify(command));
      assert.equal((await judgeCommand(command, none)).kind, 'ask', JSON.stringify(command));
      // A deny rule cannot be checked on such a command, so `*` does not let it through either.
      assert.equal((await judgeCommand(command, { allow: ['*'], deny: ['touch'] })).kind, 'ask', JSON.stringify(command));
    }
    assert.equal(unjudgeable('echo "tab\there"\nls'), undefined);
    assert.equal(unjudgeable('echo ünïcödé 😀'), undefined);
    assert.equal((await judgeCommand('echo ünïcödé 😀 | cat', none)).kind, 'allowed');
  });

  it('does not parse a command longer than the cap: it asks, and `*` allows it only without deny rules', async () => {
    const over = `${'ls | '.repeat(MAX_JUDGED_LENGTH / 5)}ls`;
    assert.ok(over.length > MAX_JUDGED_LENGTH);
    assert.match(unjudgeable(over) ?? '', /^it is longer than 65,536 characters \(/);
    const asked = await judgeCommand(over, none);
    assert.equal(asked.kind, 'ask');
    assert.ok(asked.kind === 'ask' && asked.unjudged === undefined && /cannot be judged: it is longer than/.test(asked.parts[0].special ?? ''));
    assert.equal((await judgeCommand(over, { allow: ['*'], deny: [] })).kind, 'allowed');
    const withDeny = await judgeCommand(over, { allow: ['*'], deny: ['rm'] });
    assert.ok(withDeny.kind === 'ask' && withDeny.unjudged === true);
    // Just under the cap it is judged, every part of it.
    const under = `${'ls | '.repeat((MAX_JUDGED_LENGTH - 10) / 5)}rm x`;
    assert.ok(under.length <= MAX_JUDGED_LENGTH);
    assert.deepEqual(await judgeCommand(under, { allow: ['*'], deny: ['rm'] }), { kind: 'denied', rule: 'rm', part: 'rm x' });
  });

  it('judges commands nested thousands deep without overflowing the stack, down to the innermost part', async () => {
    const depth = 6000;
    const nested = (open: string, inner: string, close: string) => open.repeat(depth) + inner + close.repeat(depth);
    assert.deepEqual(await judgeCommand(nested('echo $(', 'rm -rf x', ')'), { allow: [], deny: ['rm'] }), { kind: 'denied', rule: 'rm', part: 'rm -rf x' });
    assert.deepEqual(await judgeCommand(nested('( ', 'rm -rf x', ' )'), { allow: [], deny: ['rm'] }), { kind: 'denied', rule: 'rm', part: 'rm -rf x' });
    assert.equal((await judgeCommand(nested('echo $(', 'ls', ')'), none)).kind, 'allowed');
    // A syntax error deep inside is found and named.
    const broken = await judgeCommand(`${'echo $('.repeat(depth)}ls${')'.repeat(depth - 1)}`, none);
    assert.ok(broken.kind === 'ask' && /syntax error/.test(broken.parts[0].special ?? ''), JSON.stringify(broken).slice(0, 200));
  });

  it('a recursive search whose arguments are known only when it runs asks; one judged on its words after quote removal', async () => {
    for (const command of ['grep -r x "$DIR"', 'grep -r x $(echo /)', 'rg x $HOME', 'ls $(echo -R /)', 'grep -r x "/"', "du '..'", 'grep -rn x "../.."', 'grep x "$f"']) {
      assert.equal((await judgeCommand(command, none)).kind, 'ask', command);
    }
    for (const command of ['grep -r x "src"', 'rg "a b" src', 'ls -R src', "grep -n 'a b' notes.txt"]) assert.equal((await judgeCommand(command, none)).kind, 'allowed', command);
  });

  it('the parser itself sees both commands after U+0080 and a lone surrogate (no early end of input)', () => {
    // Bypass the refusal to check the grammar: the same commands with the character in quotes.
    for (const command of ["echo 'x\u00a0y'; touch X", 'echo "😀"; touch X']) {
      const parsed = parser.parse(command);
      assert.ok(parsed.ok, command);
      assert.deepEqual(parsed.parts.map((p) => p.words[0]), ['echo', 'touch'], command);
    }
  });

  it('matches user rules as word prefixes, never as string prefixes', async () => {
    const rules: CommandRules = { allow: ['npm test', 'make'], deny: [] };
    assert.equal((await judgeCommand('npm test', rules)).kind, 'allowed');
    assert.equal((await judgeCommand("npm 'test' -- -g x", rules)).kind, 'allowed');
    assert.equal((await judgeCommand('npm testx', rules)).kind, 'ask');
    assert.equal((await judgeCommand('npm run test', rules)).kind, 'ask');
    assert.equal((await judgeCommand('make && npm test', rules)).kind, 'allowed');
    assert.equal((await judgeCommand('make && npm publish', rules)).kind, 'ask');
  });

  it('marks commands allowed only by the read-only defaults, not those a user rule allowed', async () => {
    assert.deepEqual(await judgeCommand('git status', none), { kind: 'allowed', readOnly: true, parts: [{ text: 'git status', words: ['git', 'status'], dynamic: false, span: [0, 10] }] });
    assert.deepEqual(await judgeCommand('git status && make', { allow: ['make'], deny: [] }), { kind: 'allowed' });
  });

  it('lets deny rules win over allow rules, defaults and *', async () => {
    const rules: CommandRules = { allow: ['*'], deny: ['rm', 'git push'] };
    assert.deepEqual(await judgeCommand('ls && rm -rf build', rules), { kind: 'denied', rule: 'rm', part: 'rm -rf build' });
    assert.equal((await judgeCommand('echo $(git push origin)', rules)).kind, 'denied');
    assert.equal((await judgeCommand('git status', { allow: [], deny: ['git'] })).kind, 'denied');
    assert.equal((await judgeCommand('echo x > f && make', rules)).kind, 'allowed', '* allows writes too');
  });

  it('asks, with no prefix to remember, for what it cannot parse', async () => {
    const verdict = await judgeCommand('echo "unterminated', none);
    assert.equal(verdict.kind, 'ask');
    assert.deepEqual(verdict.kind === 'ask' && verdict.prefixes, []);
    assert.match(verdict.kind === 'ask' ? String(verdict.parts[0].special) : '', /cannot be judged/);
  });

  it('"Always allow" offers the narrowest rule per part, never a bare deleting or sending program', async () => {
    const verdict = await judgeCommand('npm test -- -g x && git commit -m y && rm -rf build && curl https://x && git push origin && npm publish && make all', none);
    assert.deepEqual(verdict.kind === 'ask' && verdict.prefixes, ['npm test', 'git commit', 'make all']);
    const part = (words: string[]) => ({ text: words.join(' '), words, dynamic: false });
    assert.equal(prefixOf(part(['mv', 'a', 'b'])), undefined);
    assert.equal(prefixOf(part(['dd', 'if=x'])), undefined);
    assert.equal(prefixOf(part(['ssh', 'host'])), undefined);
    assert.equal(prefixOf(part(['wget', 'x'])), undefined);
    assert.equal(prefixOf(part(['cargo', 'build', '--release'])), 'cargo build');
    assert.equal(prefixOf(part(['./build.sh', '--fast'])), './build.sh');
  });
});
