/**
 * The text editor and the places where code runs by itself: approval per write, the git layout,
 * and hard links. Real effects on disk are checked, not only the sentences.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { protectedReason } from '../../../src/core/workspace/protectedPaths';
import { editorBed, type EditorBed } from './harness';

describe('text editor: protected places, git layouts and hard links', () => {
  let bed: EditorBed | undefined;
  afterEach(() => {
    bed?.cleanup();
    bed = undefined;
  });

  it('knows the places where code runs on open, commit or shell start, case-folded', () => {
    for (const rel of ['.vscode/tasks.json', '.VSCode/settings.json', '.gitattributes', '.gitmodules', '.github/workflows/ci.yml', '.husky/pre-commit', '.envrc', 'sub/.envrc', '.devcontainer/devcontainer.json', '.idea/workspace.xml', '.bashrc', '.zshrc', '.profile', '.npmrc', '.pre-commit-config.yaml', '.vscode']) {
      assert.ok(protectedReason(rel), rel);
    }
    for (const rel of ['src/a.ts', 'README.md', 'vscode/x', 'docs/envrc.md', 'husky.txt']) assert.equal(protectedReason(rel), undefined, rel);
  });

  it('asks for every protected write even when edits apply without asking; a denial writes nothing', async () => {
    bed = editorBed({ policy: { mode: 'apply' }, decision: 'deny' });
    const r = await bed.run({ command: 'create', path: '.vscode/tasks.json', file_text: '{"tasks":[{"runOptions":{"runOn":"folderOpen"}}]}' });
    assert.equal(r.is_error, true);
    assert.equal(fs.existsSync(path.join(bed.root, '.vscode')), false, 'nothing was created');
    assert.equal(bed.asked.length, 1);
    assert.ok(bed.asked[0].kind === 'edit' && /runs? code|run code/.test(bed.asked[0].protected ?? ''), 'the card says why');
    bed.write('.envrc', 'echo hi\n');
    const r2 = await bed.run({ command: 'str_replace', path: '.envrc', old_str: 'echo hi', new_str: 'touch PWNED' });
    assert.equal(r2.is_error, true);
    assert.equal(bed.read('.envrc'), 'echo hi\n');
    // An ordinary file still writes without asking.
    assert.equal((await bed.run({ command: 'create', path: 'src/a.ts', file_text: 'x\n' })).is_error, false);
    assert.equal(bed.asked.length, 2);
  });

  it('writes a protected place once the user approves that write', async () => {
    bed = editorBed({ policy: { mode: 'apply' }, decision: 'once' });
    const r = await bed.run({ command: 'create', path: '.husky/pre-commit', file_text: 'npm test\n' });
    assert.equal(r.is_error, false, String(r.content));
    assert.equal(bed.read('.husky/pre-commit'), 'npm test\n');
  });

  it('refuses protected writes with the host sentence (the CLI without --allow-edits-protected), applies them with it', async () => {
    bed = editorBed({ policy: { mode: 'apply' }, protectedWrites: { mode: 'refuse', how: 'Use --allow-edits-protected.' } });
    const r = await bed.run({ command: 'create', path: '.vscode/tasks.json', file_text: '{}' });
    assert.equal(r.is_error, true);
    assert.match(String(r.content), /protected place.*--allow-edits-protected/s);
    assert.equal(fs.existsSync(path.join(bed.root, '.vscode')), false);
    bed.cleanup();
    bed = editorBed({ policy: { mode: 'apply' }, protectedWrites: { mode: 'apply' } });
    assert.equal((await bed.run({ command: 'create', path: '.vscode/tasks.json', file_text: '{}' })).is_error, false);
    assert.equal(bed.read('.vscode/tasks.json'), '{}');
  });

  it('never creates a git directory layout (HEAD + objects/ + refs/), in the root or below, in any order', async () => {
    bed = editorBed({ policy: { mode: 'apply' } });
    for (const dir of ['', 'sub/']) {
      assert.equal((await bed.run({ command: 'create', path: `${dir}config`, file_text: '[core]\n\tfsmonitor = touch PWNED\n' })).is_error, false);
      assert.equal((await bed.run({ command: 'create', path: `${dir}objects/x`, file_text: 'x' })).is_error, false);
      assert.equal((await bed.run({ command: 'create', path: `${dir}refs/heads/main`, file_text: '0\n' })).is_error, false);
      const head = await bed.run({ command: 'create', path: `${dir}HEAD`, file_text: 'ref: refs/heads/main\n' });
      assert.equal(head.is_error, true, dir);
      assert.match(String(head.content), /layout of a git repository/);
      assert.equal(fs.existsSync(path.join(bed.root, dir, 'HEAD')), false);
    }
    // The other order: HEAD and refs first, then objects/.
    assert.equal((await bed.run({ command: 'create', path: 'b/HEAD', file_text: 'x' })).is_error, false);
    assert.equal((await bed.run({ command: 'create', path: 'b/refs/x', file_text: 'x' })).is_error, false);
    assert.equal((await bed.run({ command: 'create', path: 'b/objects/pack/y', file_text: 'x' })).is_error, true);
    assert.equal(fs.existsSync(path.join(bed.root, 'b', 'objects')), false);
  });

  it('replaces a hard-linked file instead of writing through the link (the other name keeps its content)', async () => {
    bed = editorBed({ policy: { mode: 'apply' } });
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-outside-'));
    try {
      const target = path.join(outside, 'secret.txt');
      fs.writeFileSync(target, 'original\n');
      fs.linkSync(target, path.join(bed.root, 'linked.txt'));
      const r = await bed.run({ command: 'str_replace', path: 'linked.txt', old_str: 'original', new_str: 'changed' });
      assert.equal(r.is_error, false, String(r.content));
      assert.equal(fs.readFileSync(target, 'utf8'), 'original\n', 'the file outside the workspace is unchanged');
      assert.equal(bed.read('linked.txt'), 'changed\n');
      assert.equal(fs.statSync(path.join(bed.root, 'linked.txt')).nlink, 1);
      const r2 = await bed.run({ command: 'insert', path: 'linked.txt', insert_line: 0, new_str: 'top' });
      assert.equal(r2.is_error, false);
      assert.equal(fs.readFileSync(target, 'utf8'), 'original\n');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
