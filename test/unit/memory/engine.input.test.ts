import * as assert from 'node:assert/strict';
import { failsWith, forEachStore } from './harness';

forEachStore('input validation', (t) => {
  it('refuses non-object input', async () => {
    for (const input of [null, undefined, 'view /memories', 42, ['view'], true]) {
      failsWith(await t.run(input), 'Error: The memory tool input must be a JSON object with a `command` field.');
    }
  });

  it('refuses a missing or unknown command', async () => {
    failsWith(await t.run({ path: '/memories' }), 'Error: Parameter `command` is required; use one of: view, create, str_replace, insert, delete, rename.');
    failsWith(await t.run({ command: 'list', path: '/memories' }), 'Error: Unknown command `list`; use one of: view, create, str_replace, insert, delete, rename.');
    failsWith(await t.run({ command: 7 }), 'Error: Unknown command of type number; use one of: view, create, str_replace, insert, delete, rename.');
    failsWith(await t.run({ command: 'toString' }), 'Error: Unknown command `toString`; use one of: view, create, str_replace, insert, delete, rename.');
  });

  const REQUIRED: [Record<string, unknown>, string][] = [
    [{ command: 'view' }, 'Error: Parameter `path` is required for command `view`.'],
    [{ command: 'create', path: '/memories/a.md' }, 'Error: Parameter `file_text` is required for command `create`.'],
    [{ command: 'create', file_text: 'x' }, 'Error: Parameter `path` is required for command `create`.'],
    [{ command: 'str_replace', path: '/memories/a.md', new_str: 'x' }, 'Error: Parameter `old_str` is required for command `str_replace`.'],
    [{ command: 'insert', path: '/memories/a.md', insert_text: 'x' }, 'Error: Parameter `insert_line` is required for command `insert`.'],
    [{ command: 'insert', path: '/memories/a.md', insert_line: 0 }, 'Error: Parameter `insert_text` is required for command `insert`.'],
    [{ command: 'delete' }, 'Error: Parameter `path` is required for command `delete`.'],
    [{ command: 'rename', new_path: '/memories/b' }, 'Error: Parameter `old_path` is required for command `rename`.'],
    [{ command: 'rename', old_path: '/memories/a' }, 'Error: Parameter `new_path` is required for command `rename`.'],
  ];
  for (const [input, expected] of REQUIRED) {
    it(`names the missing parameter: ${expected}`, async () => failsWith(await t.run(input), expected));
  }

  const TYPES: [Record<string, unknown>, string][] = [
    [{ command: 'view', path: 5 }, 'Error: Parameter `path` of command `view` must be a string.'],
    [{ command: 'create', path: '/memories/a.md', file_text: { text: 'x' } }, 'Error: Parameter `file_text` of command `create` must be a string.'],
    [{ command: 'str_replace', path: '/memories/a.md', old_str: 'a', new_str: 3 }, 'Error: Parameter `new_str` of command `str_replace` must be a string.'],
    [{ command: 'insert', path: '/memories/a.md', insert_line: '2', insert_text: 'x' }, 'Error: Parameter `insert_line` of command `insert` must be an integer.'],
    [{ command: 'insert', path: '/memories/a.md', insert_line: 1.5, insert_text: 'x' }, 'Error: Parameter `insert_line` of command `insert` must be an integer.'],
    [{ command: 'insert', path: '/memories/a.md', insert_line: Number.NaN, insert_text: 'x' }, 'Error: Parameter `insert_line` of command `insert` must be an integer.'],
  ];
  for (const [input, expected] of TYPES) {
    it(`names the wrongly typed parameter: ${expected}`, async () => failsWith(await t.run(input), expected));
  }

  it('ignores unknown extra fields', async () => {
    await t.store.seed('a.md', 'x');
    const result = await t.run({ command: 'view', path: '/memories/a.md', extra: true });
    assert.equal(result.is_error, false);
  });
});
