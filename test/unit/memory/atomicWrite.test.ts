import * as assert from 'assert';
import { isFsError, writeAtomically } from '../../../src/core/memory';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('writeAtomically (the engine and the UI write files this way)', () => {
  it('replaces a file through a hidden temp file that does not stay behind', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('notes/a.md', 'old');
    await writeAtomically(fs, 'notes/a.md', bytes('new'), true);
    assert.strictEqual(fs.peekText('notes/a.md'), 'new');
    assert.deepStrictEqual(fs.snapshot().filter((p) => p.includes('.~tmp-')), []);
  });

  it('without overwrite, refuses an existing target with FileExists and changes nothing', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('features.json', '[]');
    const before = fs.snapshot();
    await assert.rejects(writeAtomically(fs, 'features.json', bytes('[1]'), false), (e: unknown) => isFsError(e, 'FileExists'));
    assert.deepStrictEqual(fs.snapshot(), before);
  });

  it('removes its temp file when the rename fails, and reports the failure', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('a.md', 'old');
    const before = fs.snapshot();
    fs.failNext('rename', 'Unavailable');
    await assert.rejects(writeAtomically(fs, 'a.md', bytes('new'), true), (e: unknown) => isFsError(e, 'Unavailable'));
    assert.deepStrictEqual(fs.snapshot(), before);
  });
});
