import * as assert from 'node:assert/strict';
import { failed, failsWith, forEachStore, ok } from './harness';

const bytesOf = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

forEachStore('create', (t) => {
  it('creates a file, and the folders above it, with the exact bytes', async () => {
    const text = 'Meeting notes:\n- Discussed project timeline\n- Next steps defined\n';
    const result = await t.run({ command: 'create', path: '/memories/projects/acme/notes.txt', file_text: text });
    assert.equal(ok(result), 'File created successfully at: /memories/projects/acme/notes.txt');
    assert.deepEqual(result.touched, { kind: 'write', path: '/memories/projects/acme/notes.txt', version: 1 });
    assert.equal(await t.store.peekText('projects/acme/notes.txt'), text);
  });

  it('refuses an existing file by default and leaves it untouched', async () => {
    await t.store.seed('a.md', 'original');
    failsWith(await t.run({ command: 'create', path: '/memories/a.md', file_text: 'new' }), 'Error: File /memories/a.md already exists');
    assert.equal(await t.store.peekText('a.md'), 'original');
  });

  it('overwrites an existing file under createPolicy "overwrite"', async () => {
    await t.store.seed('a.md', 'original');
    const engine = t.newEngine({ createPolicy: 'overwrite' });
    assert.equal(ok(await engine.execute({ command: 'create', path: '/memories/a.md', file_text: 'new' })), 'File created successfully at: /memories/a.md');
    assert.equal(await t.store.peekText('a.md'), 'new');
  });

  it('refuses to create a file where a folder is, or below a file', async () => {
    await t.store.seed('dir/x.md', 'x');
    const before = await t.store.snapshot();
    failsWith(await t.run({ command: 'create', path: '/memories/dir', file_text: 'y' }), 'Error: The path /memories/dir is a directory; create can only write files.');
    failsWith(
      await t.run({ command: 'create', path: '/memories/dir/x.md/child.md', file_text: 'y' }),
      'Error: Cannot create /memories/dir/x.md/child.md because /memories/dir/x.md is a file, not a directory.',
    );
    failsWith(
      await t.run({ command: 'create', path: '/memories/dir/x.md/deeper/child.md', file_text: 'y' }),
      'Error: Cannot create /memories/dir/x.md/deeper/child.md because /memories/dir/x.md is a file, not a directory.',
    );
    assert.deepEqual(await t.store.snapshot(), before);
  });

  for (const alias of ['/memories', '/memories/', '/memories/.', '/memories//', '/memories/./']) {
    it(`refuses to create or overwrite the root via ${JSON.stringify(alias)}`, async () => {
      await t.store.seed('keep.md', 'k');
      const before = await t.store.snapshot();
      const engine = t.newEngine({ createPolicy: 'overwrite' });
      failsWith(
        await engine.execute({ command: 'create', path: alias, file_text: 'x' }),
        'Error: Cannot create or overwrite the /memories directory itself; choose a file path below /memories.',
      );
      assert.deepEqual(await t.store.snapshot(), before);
    });
  }

  it('leaves no temporary file behind', async () => {
    ok(await t.run({ command: 'create', path: '/memories/t/a.md', file_text: 'x' }));
    ok(await t.run({ command: 'str_replace', path: '/memories/t/a.md', old_str: 'x', new_str: 'y' }));
    ok(await t.run({ command: 'insert', path: '/memories/t/a.md', insert_line: 1, insert_text: 'z' }));
    const entries = (await t.store.snapshot()).filter((l) => !l.startsWith('outside'));
    assert.deepEqual(entries.map((l) => l.split(' ')[0]), ['t/', 't/a.md']);
  });
});

forEachStore('str_replace', (t) => {
  it('replaces a unique occurrence and shows a numbered snippet of the edited region', async () => {
    await t.store.seed('p.txt', 'l1\nl2\nl3\nl4\nl5\nFavorite color: blue\nl7\nl8\nl9\nl10\nl11\n');
    const result = await t.run({ command: 'str_replace', path: '/memories/p.txt', old_str: 'Favorite color: blue', new_str: 'Favorite color: green' });
    assert.equal(
      ok(result),
      [
        'The memory file has been edited. Here is the snippet showing the change (with line numbers):',
        '     2\tl2',
        '     3\tl3',
        '     4\tl4',
        '     5\tl5',
        '     6\tFavorite color: green',
        '     7\tl7',
        '     8\tl8',
        '     9\tl9',
        '    10\tl10',
      ].join('\n'),
    );
    assert.deepEqual(result.touched, { kind: 'write', path: '/memories/p.txt', version: 2 });
    assert.equal(await t.store.peekText('p.txt'), 'l1\nl2\nl3\nl4\nl5\nFavorite color: green\nl7\nl8\nl9\nl10\nl11\n');
  });

  it('matches a multi-line old_str', async () => {
    await t.store.seed('m.md', '# Title\nfirst\nsecond\nthird\n');
    ok(await t.run({ command: 'str_replace', path: '/memories/m.md', old_str: 'first\nsecond\n', new_str: 'merged\n' }));
    assert.equal(await t.store.peekText('m.md'), '# Title\nmerged\nthird\n');
  });

  it('reports two occurrences on one line as multiple, with line numbers, and writes nothing', async () => {
    await t.store.seed('d.md', 'a\ntodo todo\nb\ntodo\n');
    const before = await t.store.snapshot();
    failsWith(
      await t.run({ command: 'str_replace', path: '/memories/d.md', old_str: 'todo', new_str: 'done' }),
      'No replacement was performed. Multiple occurrences of old_str `todo` in lines: 2, 4. Please ensure it is unique',
    );
    failsWith(
      await t.run({ command: 'str_replace', path: '/memories/d.md', old_str: 'do', new_str: 'x' }),
      'No replacement was performed. Multiple occurrences of old_str `do` in lines: 2, 4. Please ensure it is unique',
    );
    await t.store.seed('one.md', 'x todo todo\n');
    failsWith(
      await t.run({ command: 'str_replace', path: '/memories/one.md', old_str: 'todo', new_str: 'done' }),
      'No replacement was performed. Multiple occurrences of old_str `todo` in lines: 1. Please ensure it is unique',
    );
    assert.deepEqual((await t.store.snapshot()).filter((l) => !l.startsWith('one.md')), before);
  });

  it('lists at most the first 100 occurrences of a very common old_str', async () => {
    await t.store.seed('big.md', 'x\n'.repeat(200_000));
    const lines = Array.from({ length: 100 }, (_, i) => i + 1).join(', ');
    failsWith(
      await t.run({ command: 'str_replace', path: '/memories/big.md', old_str: 'x', new_str: 'y' }),
      `No replacement was performed. Multiple occurrences of old_str \`x\` in lines: ${lines}. Please ensure it is unique`,
    );
  });

  it('reports a missing old_str with the documented sentence', async () => {
    await t.store.seed('d.md', 'abc\n');
    failsWith(
      await t.run({ command: 'str_replace', path: '/memories/d.md', old_str: 'xyz', new_str: '' }),
      'No replacement was performed, old_str `xyz` did not appear verbatim in /memories/d.md.',
    );
  });

  it('reports a missing file and a directory as not existing', async () => {
    failsWith(
      await t.run({ command: 'str_replace', path: '/memories/no.md', old_str: 'a', new_str: 'b' }),
      'Error: The path /memories/no.md does not exist. Please provide a valid path.',
    );
    await t.store.seed('dir/x.md', 'a');
    failsWith(
      await t.run({ command: 'str_replace', path: '/memories/dir', old_str: 'a', new_str: 'b' }),
      'Error: The path /memories/dir does not exist. Please provide a valid path.',
    );
  });

  it('writes $&, $$, $1 and $` literally', async () => {
    await t.store.seed('p.md', 'price: X\n');
    ok(await t.run({ command: 'str_replace', path: '/memories/p.md', old_str: 'X', new_str: "$& $$ $1 $` $' $<n>" }));
    assert.equal(await t.store.peekText('p.md'), "price: $& $$ $1 $` $' $<n>\n");
  });

  it('deletes old_str when new_str is omitted (or null)', async () => {
    await t.store.seed('p.md', 'keep REMOVE keep\n');
    ok(await t.run({ command: 'str_replace', path: '/memories/p.md', old_str: ' REMOVE' }));
    assert.equal(await t.store.peekText('p.md'), 'keep keep\n');
    ok(await t.run({ command: 'str_replace', path: '/memories/p.md', old_str: ' keep', new_str: null }));
    assert.equal(await t.store.peekText('p.md'), 'keep\n');
  });

  it('refuses an empty old_str', async () => {
    await t.store.seed('p.md', 'abc');
    failsWith(
      await t.run({ command: 'str_replace', path: '/memories/p.md', old_str: '', new_str: 'x' }),
      'Error: Parameter `old_str` of command `str_replace` must not be empty.',
    );
    assert.equal(await t.store.peekText('p.md'), 'abc');
  });

  it('keeps CRLF line endings and a BOM byte-exact, also for a multi-line LF old_str', async () => {
    const original = '\uFEFFalpha\r\nbeta\r\ngamma\r\ndelta\r\n';
    await t.store.seed('w.txt', bytesOf(original));
    ok(await t.run({ command: 'str_replace', path: '/memories/w.txt', old_str: 'beta\ngamma', new_str: 'B\nG\nX' }));
    assert.deepEqual(await t.store.peek('w.txt'), bytesOf('\uFEFFalpha\r\nB\r\nG\r\nX\r\ndelta\r\n'));
    ok(await t.run({ command: 'str_replace', path: '/memories/w.txt', old_str: 'delta', new_str: 'D' }));
    assert.deepEqual(await t.store.peek('w.txt'), bytesOf('\uFEFFalpha\r\nB\r\nG\r\nX\r\nD\r\n'));
  });

  it('leaves other lines of a mixed-ending file and a missing final newline untouched', async () => {
    await t.store.seed('mix.txt', bytesOf('a\r\nb\nc\r\nend'));
    ok(await t.run({ command: 'str_replace', path: '/memories/mix.txt', old_str: 'b', new_str: 'B' }));
    assert.deepEqual(await t.store.peek('mix.txt'), bytesOf('a\r\nB\nc\r\nend'));
  });

  it('shows a snippet for a deletion at the end of the file', async () => {
    await t.store.seed('e.md', 'one\ntwo\nthree');
    assert.equal(
      ok(await t.run({ command: 'str_replace', path: '/memories/e.md', old_str: '\nthree' })),
      'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tone\n     2\ttwo',
    );
  });
});

forEachStore('insert', (t) => {
  it('inserts after line N (0 = top) as whole lines', async () => {
    await t.store.seed('todo.txt', '- a\n- b\n- c\n');
    const result = await t.run({ command: 'insert', path: '/memories/todo.txt', insert_line: 2, insert_text: '- Review memory tool documentation\n' });
    assert.equal(ok(result), 'The file /memories/todo.txt has been edited.');
    assert.deepEqual(result.touched, { kind: 'write', path: '/memories/todo.txt', version: 2 });
    assert.equal(await t.store.peekText('todo.txt'), '- a\n- b\n- Review memory tool documentation\n- c\n');
    ok(await t.run({ command: 'insert', path: '/memories/todo.txt', insert_line: 0, insert_text: '# TODO' }));
    assert.equal(await t.store.peekText('todo.txt'), '# TODO\n- a\n- b\n- Review memory tool documentation\n- c\n');
    ok(await t.run({ command: 'insert', path: '/memories/todo.txt', insert_line: 5, insert_text: '- z\n- zz' }));
    assert.equal(await t.store.peekText('todo.txt'), '# TODO\n- a\n- b\n- Review memory tool documentation\n- c\n- z\n- zz\n');
  });

  it('appends after a last line without newline, keeping the file ending like the inserted text', async () => {
    await t.store.seed('n.txt', 'a\nb');
    ok(await t.run({ command: 'insert', path: '/memories/n.txt', insert_line: 2, insert_text: 'c' }));
    assert.equal(await t.store.peekText('n.txt'), 'a\nb\nc');
    ok(await t.run({ command: 'insert', path: '/memories/n.txt', insert_line: 3, insert_text: 'd\n' }));
    assert.equal(await t.store.peekText('n.txt'), 'a\nb\nc\nd\n');
    ok(await t.run({ command: 'insert', path: '/memories/n.txt', insert_line: 1, insert_text: 'mid' }));
    assert.equal(await t.store.peekText('n.txt'), 'a\nmid\nb\nc\nd\n');
  });

  it('inserts into an empty file', async () => {
    await t.store.seed('e.txt', '');
    ok(await t.run({ command: 'insert', path: '/memories/e.txt', insert_line: 0, insert_text: 'first' }));
    assert.equal(await t.store.peekText('e.txt'), 'first\n');
  });

  it('validates insert_line against [0, n_lines] with the documented sentence', async () => {
    await t.store.seed('t.txt', 'a\nb\nc\n');
    failsWith(
      await t.run({ command: 'insert', path: '/memories/t.txt', insert_line: 4, insert_text: 'x' }),
      'Error: Invalid `insert_line` parameter: 4. It should be within the range of lines of the file: [0, 3]',
    );
    failsWith(
      await t.run({ command: 'insert', path: '/memories/t.txt', insert_line: -1, insert_text: 'x' }),
      'Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 3]',
    );
    assert.equal(await t.store.peekText('t.txt'), 'a\nb\nc\n');
  });

  it('reports a missing file or a directory with the documented sentence', async () => {
    failsWith(await t.run({ command: 'insert', path: '/memories/no.txt', insert_line: 0, insert_text: 'x' }), 'Error: The path /memories/no.txt does not exist');
    await t.store.seed('d/x', 'x');
    failsWith(await t.run({ command: 'insert', path: '/memories/d', insert_line: 0, insert_text: 'x' }), 'Error: The path /memories/d does not exist');
  });

  it('keeps CRLF and the BOM; inserted text adopts CRLF', async () => {
    await t.store.seed('w.txt', bytesOf('\uFEFFone\r\ntwo\r\n'));
    ok(await t.run({ command: 'insert', path: '/memories/w.txt', insert_line: 1, insert_text: 'x\ny\n' }));
    assert.deepEqual(await t.store.peek('w.txt'), bytesOf('\uFEFFone\r\nx\r\ny\r\ntwo\r\n'));
    ok(await t.run({ command: 'insert', path: '/memories/w.txt', insert_line: 4, insert_text: 'end' }));
    assert.deepEqual(await t.store.peek('w.txt'), bytesOf('\uFEFFone\r\nx\r\ny\r\ntwo\r\nend\r\n'));
  });

  it('refuses non-UTF-8 files and leaves them byte-exact', async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    await t.store.seed('l.txt', latin1);
    failed(await t.run({ command: 'insert', path: '/memories/l.txt', insert_line: 0, insert_text: 'x' }));
    failed(await t.run({ command: 'str_replace', path: '/memories/l.txt', old_str: 'caf', new_str: 'x' }));
    assert.deepEqual(await t.store.peek('l.txt'), latin1);
  });
});
