import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EditorDocuments } from '../../../src/core/workspace';
import { editorBed, type EditorBed } from './harness';

describe('workspace text editor (text_editor_20250728)', () => {
  let bed: EditorBed;
  afterEach(() => bed?.cleanup());

  it('defines itself as the Anthropic tool with max_characters', () => {
    bed = editorBed({ maxCharacters: 5000 });
    assert.deepEqual(bed.tool.definition(), { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 5000 });
  });

  it('views a file with line numbers, by absolute and by relative path, with view_range', async () => {
    bed = editorBed();
    bed.write('src/a.js', 'one\ntwo\nthree\n');
    const abs = await bed.run({ command: 'view', path: `${bed.root}/src/a.js` });
    assert.equal(abs.is_error, false);
    assert.equal(abs.content, `Here's the result of running \`cat -n\` on ${bed.root}/src/a.js:\n     1\tone\n     2\ttwo\n     3\tthree`);
    const rel = await bed.run({ command: 'view', path: 'src/a.js', view_range: [2, -1] });
    assert.match(String(rel.content), /\n {5}2\ttwo\n {5}3\tthree$/);
    // The chat's card: the folder-relative path, the range asked for and the file's length (never the host path).
    assert.deepEqual(abs.detail, { kind: 'fileRead', path: 'src/a.js', lines: 3 });
    assert.deepEqual(rel.detail, { kind: 'fileRead', path: 'src/a.js', range: [2, -1], lines: 3 });
    assert.deepEqual((await bed.run({ command: 'view', path: 'src' })).detail, { kind: 'fileRead', path: 'src', directory: true });
    const bad = await bed.run({ command: 'view', path: 'src/a.js', view_range: [5, 6] });
    assert.equal(bad.is_error, true);
    assert.match(String(bad.content), /Invalid `view_range`/);
  });

  it('cuts long views at max_characters and says how to read on', async () => {
    bed = editorBed({ maxCharacters: 200 });
    bed.write('big.txt', Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = await bed.run({ command: 'view', path: 'big.txt' });
    assert.ok(String(result.content).length < 500);
    assert.match(String(result.content), /view_range \[\d+, -1\]/);
  });

  it('lists a folder two levels deep without hidden items, node_modules, .gitignore and files.exclude entries', async () => {
    bed = editorBed({ excludes: ['**/*.log'] });
    bed.write('.gitignore', 'dist/\n*.tmp\n');
    bed.write('src/app.js', 'x');
    bed.write('src/lib/deep/too-deep.js', 'x');
    bed.write('src/.gitignore', 'secret.js\n');
    bed.write('src/secret.js', 'x');
    bed.write('dist/out.js', 'x');
    bed.write('notes.tmp', 'x');
    bed.write('debug.log', 'x');
    bed.write('node_modules/pkg/index.js', 'x');
    bed.write('.env', 'x');
    bed.write('README.md', 'x');
    const result = await bed.run({ command: 'view', path: bed.root });
    const lines = String(result.content).split('\n');
    assert.match(lines[0], /^Here're the files and directories up to 2 levels deep in /);
    assert.deepEqual(lines.slice(1).map((l) => l.slice(bed.root.length)), ['/', '/README.md', '/src/', '/src/app.js', '/src/lib/']);
  });

  it('str_replace needs a unique old_str and names the lines of every occurrence', async () => {
    bed = editorBed();
    bed.write('a.py', 'x = 1\ny = 1\nx = 1\n');
    const many = await bed.run({ command: 'str_replace', path: 'a.py', old_str: 'x = 1', new_str: 'x = 2' });
    assert.equal(many.is_error, true);
    assert.match(String(many.content), /Multiple occurrences of old_str `x = 1` in lines: 1, 3/);
    const none = await bed.run({ command: 'str_replace', path: 'a.py', old_str: 'z', new_str: 'q' });
    assert.match(String(none.content), /did not appear verbatim/);
    assert.equal(bed.read('a.py'), 'x = 1\ny = 1\nx = 1\n');
    const ok = await bed.run({ command: 'str_replace', path: 'a.py', old_str: 'y = 1', new_str: 'y = 2' });
    assert.equal(ok.is_error, false);
    assert.match(String(ok.content), /has been edited\. Here's the result of running `cat -n` on a snippet/);
    assert.equal(bed.read('a.py'), 'x = 1\ny = 2\nx = 1\n');
    assert.deepEqual(ok.detail, { kind: 'edit', path: 'a.py', before: 'x = 1\ny = 1\nx = 1\n', after: 'x = 1\ny = 2\nx = 1\n' });
  });

  it('insert takes new_str after insert_line; create refuses an existing file and makes missing folders', async () => {
    bed = editorBed();
    bed.write('a.txt', 'a\nc\n');
    const ins = await bed.run({ command: 'insert', path: 'a.txt', insert_line: 1, new_str: 'b' });
    assert.equal(ins.is_error, false, String(ins.content));
    assert.equal(bed.read('a.txt'), 'a\nb\nc\n');
    const exists = await bed.run({ command: 'create', path: 'a.txt', file_text: 'gone' });
    assert.equal(exists.content, `Error: File already exists at: ${bed.root}/a.txt. Cannot overwrite files using command \`create\`.`);
    const created = await bed.run({ command: 'create', path: 'new/dir/b.txt', file_text: 'hi\n' });
    assert.equal(created.content, `File created successfully at: ${bed.root}/new/dir/b.txt`);
    assert.equal(bed.read('new/dir/b.txt'), 'hi\n');
  });

  it('keeps an edited file\'s mode (writes in place)', async () => {
    bed = editorBed();
    bed.write('run.sh', '#!/bin/sh\necho hi\n');
    fs.chmodSync(path.join(bed.root, 'run.sh'), 0o755);
    await bed.run({ command: 'str_replace', path: 'run.sh', old_str: 'hi', new_str: 'ho' });
    assert.equal(fs.statSync(path.join(bed.root, 'run.sh')).mode & 0o777, 0o755);
  });

  it('refuses .., .git internals, other folders, links and the memory folder with plain sentences', async () => {
    bed = editorBed();
    bed.write('.git/config', '[core]\n');
    bed.write('.claude-memories/progress.md', 'x\n');
    fs.symlinkSync('/etc', path.join(bed.root, 'etc-link'));
    const cases: Array<[string, RegExp]> = [
      ['../x', /`\.\.` segment/],
      ['.git/config', /inside \.git/],
      ['/etc/passwd', /outside the workspace folder/],
      ['/memories/progress.md', /use the memory tool for \/memories/],
      ['.claude-memories/progress.md', /use the memory tool for \/memories/],
      [`${bed.root}/.Claude-Memories/progress.md`, /use the memory tool for \/memories/],
      ['etc-link/passwd', /symbolic link/],
    ];
    for (const [p, expected] of cases) {
      const result = await bed.run({ command: 'view', path: p });
      assert.equal(result.is_error, true, p);
      assert.match(String(result.content), expected, p);
    }
  });

  it('asks before writing under "ask"; a denial is the declined sentence and changes nothing', async () => {
    bed = editorBed({ policy: { mode: 'ask' }, decision: 'deny' });
    bed.write('a.txt', 'old\n');
    const result = await bed.run({ command: 'str_replace', path: 'a.txt', old_str: 'old', new_str: 'new' });
    assert.equal(result.is_error, true);
    assert.match(String(result.content), /the user declined/);
    assert.equal(bed.read('a.txt'), 'old\n');
    assert.deepEqual(bed.asked, [{ kind: 'edit', toolUseId: 'toolu_1', path: 'a.txt', before: 'old\n', after: 'new\n' }]);
  });

  it('a Reject with words gives Claude what the user said', async () => {
    bed = editorBed({ policy: { mode: 'ask' }, decision: { decision: 'deny', reason: 'keep the old name' } });
    bed.write('a.txt', 'old\n');
    const result = await bed.run({ command: 'str_replace', path: 'a.txt', old_str: 'old', new_str: 'new' });
    assert.equal(result.is_error, true);
    assert.match(String(result.content), /the user declined this edit of \S*a\.txt; nothing was changed\. The user said: keep the old name$/);
    assert.equal(bed.read('a.txt'), 'old\n');
  });

  it('refuses every write with the host\'s sentence under "refuse", and still reads', async () => {
    bed = editorBed({ policy: { mode: 'refuse', reason: 'Error: edits need --allow-edits.' } });
    bed.write('a.txt', 'old\n');
    assert.equal((await bed.run({ command: 'create', path: 'b.txt', file_text: 'x' })).content, 'Error: edits need --allow-edits.');
    assert.equal((await bed.run({ command: 'insert', path: 'a.txt', insert_line: 0, new_str: 'x' })).is_error, true);
    assert.equal(bed.read('a.txt'), 'old\n');
    assert.equal(fs.existsSync(path.join(bed.root, 'b.txt')), false);
    assert.equal((await bed.run({ command: 'view', path: 'a.txt' })).is_error, false);
  });

  it('reads and edits an open document through EditorDocuments, never the file on disk', async () => {
    const texts = new Map<string, string>([['a.txt', 'disk\nuser unsaved\n']]);
    const replaced: Array<[string, string, string]> = [];
    const documents: EditorDocuments = {
      openText: (rel) => texts.get(rel),
      replace: async (rel, before, after) => {
        replaced.push([rel, before, after]);
        texts.set(rel, after);
        return 'applied';
      },
    };
    bed = editorBed({ documents });
    bed.write('a.txt', 'disk\n');
    const view = await bed.run({ command: 'view', path: 'a.txt' });
    assert.match(String(view.content), /user unsaved/);
    const edit = await bed.run({ command: 'str_replace', path: 'a.txt', old_str: 'disk', new_str: 'claude' });
    assert.equal(edit.is_error, false);
    assert.deepEqual(replaced, [['a.txt', 'disk\nuser unsaved\n', 'claude\nuser unsaved\n']]);
    assert.equal(bed.read('a.txt'), 'disk\n', 'the document, not the disk, takes the edit');
    const create = await bed.run({ command: 'create', path: 'a.txt', file_text: 'x' });
    assert.equal(create.is_error, true);
  });

  it('refuses binary files and validates input with sentences', async () => {
    bed = editorBed();
    fs.writeFileSync(path.join(bed.root, 'bin.dat'), Buffer.from([0, 1, 2]));
    assert.match(String((await bed.run({ command: 'view', path: 'bin.dat' })).content), /not a UTF-8 text file/);
    assert.match(String((await bed.run({ command: 'undo_edit', path: 'a' })).content), /Unknown command `undo_edit`/);
    assert.match(String((await bed.run({ command: 'insert', path: 'a', insert_line: 0 })).content), /`new_str` is required/);
    assert.match(String((await bed.run('nope')).content), /must be a JSON object/);
  });
});
