/**
 * What "Always allow" offers (ruleOffers.ts, issue 32 finding 5): never an interpreter alone,
 * program plus script or sub-command, offers that match the command on the card, and a
 * `stillAsks` that is set exactly when the offered rules would not let the command run.
 */
import * as assert from 'assert';
import { judgeCommand, type CommandRules } from '../../../src/core/workspace/commandRules';
import { isInterpreter, normalName } from '../../../src/core/workspace/ruleOffers';

const none: CommandRules = { allow: [], deny: [] };

async function offers(command: string): Promise<{ rules: string[]; stillAsks?: string }> {
  const verdict = await judgeCommand(command, none);
  assert.equal(verdict.kind, 'ask', `${command} asks`);
  return verdict.kind === 'ask' ? { rules: verdict.prefixes, ...(verdict.stillAsks !== undefined ? { stillAsks: verdict.stillAsks } : {}) } : { rules: [] };
}

const INTERPRETER_COMMANDS = [
  'node src/cli.js add "from the review"', 'node -e "console.log(1)"', 'node', 'node --test', 'nodejs x.js', 'python3 -c "import os"',
  'python script.py', 'python3.12 -m pytest -q', '/usr/bin/python3 tools/gen.py', 'ruby -e "puts 1"', 'ruby bin/setup', 'perl -e "print 1"',
  'perl scripts/x.pl', 'deno eval "1"', 'deno run main.ts', 'deno run -A main.ts', 'deno task build', 'bun -e "1"', 'bun run build', 'bun test',
  'php -r "echo 1;"', 'lua -e "x"', 'npx jest', 'npx', 'bash -c "make"', 'sh build.sh', 'bash', 'tsx src/x.ts', 'ts-node -e 1', 'java -jar app.jar',
  'Rscript -e 1', 'pwsh -Command x', 'osascript -e x',
];

describe('Always allow offers (ruleOffers)', () => {
  it('never offers an interpreter alone, only with its script, module or sub-command', async () => {
    for (const command of INTERPRETER_COMMANDS) {
      const { rules } = await offers(command);
      for (const rule of rules) {
        const words = rule.split(' ');
        assert.ok(!(isInterpreter(words[0]) && words.length === 1), `${command} offered the bare interpreter "${rule}"`);
        assert.ok(!['sh', 'bash', 'npx', 'env', 'xargs'].includes(normalName(words[0])), `${command} offered "${rule}"`);
      }
    }
    assert.deepEqual((await offers('node src/cli.js add "from the review"')).rules, ['node src/cli.js']);
    assert.deepEqual((await offers('python3.12 -m pytest -q')).rules, ['python3.12 -m pytest']);
    assert.deepEqual((await offers('/usr/bin/python3 tools/gen.py')).rules, ['/usr/bin/python3 tools/gen.py']);
    assert.deepEqual((await offers('deno task build')).rules, ['deno task build']);
    assert.deepEqual((await offers('deno run -A main.ts')).rules, [], 'options before the script: nothing to name');
    assert.deepEqual((await offers('bun test')).rules, ['bun test']);
    assert.deepEqual((await offers('java -jar app.jar')).rules, ['java -jar app.jar']);
    for (const inline of ['node -e "console.log(1)"', 'python3 -c "import os"', 'ruby -e "puts 1"', 'perl -e "print 1"', 'deno eval "1"', 'bun -e "1"', 'npx jest', 'bash -c "make"']) {
      const offered = await offers(inline);
      assert.deepEqual(offered.rules, [], inline);
      assert.ok(offered.stillAsks, `${inline}: the card says why nothing is offered`);
    }
  });

  it('offers a tool with its sub-command, a script runner with its script, and never a wrapper or a program text', async () => {
    assert.deepEqual((await offers('npm test -- --grep x')).rules, ['npm test']);
    assert.deepEqual((await offers('npm run build')).rules, ['npm run build']);
    assert.deepEqual((await offers('npm run')).rules, []);
    assert.deepEqual((await offers('make test')).rules, ['make test']);
    assert.deepEqual((await offers('make')).rules, [], 'make alone is every target, -f and --eval too');
    assert.deepEqual((await offers('git -C sub commit -m x')).rules, [], 'an option before the sub-command');
    assert.deepEqual((await offers('/usr/bin/git push origin')).rules, [], 'a path does not hide git push');
    assert.deepEqual((await offers('uv run pytest')).rules, ['uv run pytest']);
    assert.deepEqual((await offers('cargo build --release')).rules, ['cargo build']);
    assert.deepEqual((await offers('timeout 10 node x.js')).rules, []);
    assert.deepEqual((await offers('nice -n 5 make test')).rules, []);
    assert.deepEqual((await offers("awk '{print $1}' notes.txt")).rules, []);
    assert.deepEqual((await offers('sed -i s/a/b/ notes.txt')).rules, []);
    assert.deepEqual((await offers('docker run --rm -v /:/h alpine')).rules, []);
    assert.deepEqual((await offers('eslint --fix src')).rules, ['eslint']);
    assert.deepEqual((await offers('./build.sh --fast')).rules, ['./build.sh']);
  });

  it('offers what the command on the card runs, and says what still asks (f=$(mktemp) && TODO_FILE=$f node …)', async () => {
    const command = 'f=$(mktemp) && TODO_FILE=$f node src/cli.js add milk && TODO_FILE=$f node src/cli.js add eggs && TODO_FILE=$f node src/cli.js done 2';
    const offered = await offers(command);
    assert.deepEqual(offered.rules, ['mktemp', 'node src/cli.js']);
    assert.equal(offered.stillAsks, '`f=$(mktemp)`, `TODO_FILE=$f node src/cli.js ad…` and 2 more (sets variables)');
  });

  it('names each part that still asks once, not the assignments inside it, and counts the rest', async () => {
    const offered = await offers('X0=1 make; X1=1 make; X2=1 make; A=1 B=2 make; C=3');
    assert.equal(offered.stillAsks, '`X0=1 make`, `X1=1 make` and 3 more (sets variables)');
    const many = await offers(Array.from({ length: 3000 }, (_, i) => `X${i}=1 make`).join('; '));
    assert.equal(many.stillAsks, '`X0=1 make`, `X1=1 make` and 2998 more (sets variables)');
  });

  it('stillAsks is set exactly when the offered rules would not let the command run', async () => {
    const commands = [
      ...INTERPRETER_COMMANDS,
      'npm test', 'npm test && make all', 'cargo build && rm -rf target', 'make test > log.txt', 'X=1 npm test', 'echo $(npm test)', 'npm run build; node dist/x.js',
      'f=$(mktemp) && TODO_FILE=$f node src/cli.js add milk', 'git add -A && git commit -m "x"', 'git push origin main', 'pytest -q | tee out.txt',
    ];
    for (const command of commands) {
      const offered = await offers(command);
      const after = await judgeCommand(command, { allow: offered.rules, deny: [] });
      assert.equal(after.kind === 'allowed', offered.stillAsks === undefined, `${command}: offered ${JSON.stringify(offered.rules)}, stillAsks ${offered.stillAsks}, then ${after.kind}`);
    }
  });
});
