// The store's files as documents (MCP resources): listing and reading through the engine's guards.
import * as assert from 'node:assert/strict';
import { isMemoryError } from '../../../src/core/memory';
import { listStoreFiles, readStoreFile } from '../../../src/core/memory/storeFiles';
import { InMemoryFileSystem } from '../../support/inMemoryFileSystem';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('store files (resources)', () => {
  it('lists regular files depth-first, leaving out dot-names, node_modules and links', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('b.md', 'bb');
    fs.seed('a/z.md', 'z');
    fs.seed('a/.secret.md', 'x');
    fs.seed('.git/config', 'x');
    fs.seed('node_modules/p.md', 'x');
    fs.seed('elsewhere.md', 'target');
    fs.symlink('link.md', 'elsewhere.md');
    const files = await listStoreFiles(fs);
    assert.deepEqual(files.map((f) => [f.path, f.size]), [['/memories/a/z.md', 1], ['/memories/b.md', 2], ['/memories/elsewhere.md', 6]]);
  });

  it('stops at the listing limit and lists nothing for a missing store', async () => {
    const fs = new InMemoryFileSystem();
    for (let i = 0; i < 5; i++) fs.seed(`f${i}.md`, 'x');
    assert.equal((await listStoreFiles(fs, 3)).length, 3);
    assert.deepEqual(await listStoreFiles(new InMemoryFileSystem(false)), []);
  });

  it('reads a text file whole (no line numbers) and an image as base64', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('notes.md', '\uFEFFline 1\r\nline 2\n');
    fs.seed('pic.png', PNG);
    assert.deepEqual(await readStoreFile(fs, '/memories/notes.md'), { kind: 'text', text: 'line 1\r\nline 2\n' });
    assert.deepEqual(await readStoreFile(fs, '/memories/pic.png'), { kind: 'image', mediaType: 'image/png', base64: Buffer.from(PNG).toString('base64') });
  });

  it('refuses what the engine refuses, with its sentences', async () => {
    const fs = new InMemoryFileSystem();
    fs.seed('bin.md', new Uint8Array([1, 0, 2]));
    fs.seed('fake.png', 'not a png');
    fs.seed('dir/x.md', 'x');
    fs.seed('elsewhere.md', 'target');
    fs.symlink('link.md', 'elsewhere.md');
    const cases: [string, RegExp][] = [
      ['/memories/missing.md', /does not exist/],
      ['/memories/dir', /does not exist/],
      ['/memories/../etc/passwd', /\.\./],
      ['/etc/passwd', /\/memories/],
      ['/memories/bin.md', /not a UTF-8 text file/],
      ['/memories/fake.png', /content is not an image/],
      ['/memories/link.md', /link/i],
    ];
    for (const [p, message] of cases) {
      await assert.rejects(readStoreFile(fs, p), (e: unknown) => isMemoryError(e) && message.test(e.modelText), p);
    }
  });
});
