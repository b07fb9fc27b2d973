// The MCP server's store watcher: one watch per visible folder, following folders as they come and go.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { watchStore, type StoreWatch } from '../../../src/cli/mcp/storeWatcher';

describe('mcp store watcher', () => {
  let root: string;
  let watch: StoreWatch | undefined;
  let waiting: (() => void)[] = [];
  const errors: unknown[] = [];
  /** Resolves at the watcher's next report. */
  const nextChange = () => new Promise<void>((resolve) => waiting.push(resolve));
  /** Waits on reports until `ok` holds (the mocha timeout bounds it). */
  async function until(ok: () => boolean): Promise<void> {
    while (!ok()) await nextChange();
  }

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-watch-'));
    fs.mkdirSync(path.join(root, '.meta/history'), { recursive: true });
    fs.mkdirSync(path.join(root, 'notes'));
    errors.length = 0;
    waiting = [];
    watch = watchStore(
      root,
      () => {
        const w = waiting;
        waiting = [];
        for (const resolve of w) resolve();
      },
      (e) => errors.push(e),
    );
  });
  afterEach(() => {
    watch?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('watches the root and its visible folders, never the hidden .meta (its lock and journal change on every call)', () => {
    assert.deepEqual(watch?.folders, ['', 'notes']);
    assert.deepEqual(errors, []);
  });

  it('reports a file written in a folder made after the watch started, and stops watching a removed folder', async () => {
    let change = nextChange();
    fs.mkdirSync(path.join(root, 'notes/deep'));
    await change;
    await until(() => watch!.folders.includes('notes/deep'));
    change = nextChange();
    fs.writeFileSync(path.join(root, 'notes/deep/a.md'), 'a');
    await change;
    change = nextChange();
    fs.rmSync(path.join(root, 'notes'), { recursive: true });
    await change;
    await until(() => !watch!.folders.includes('notes/deep') && !watch!.folders.includes('notes'));
    assert.deepEqual(watch?.folders, ['']);
  });

  it('follows a folder tree moved in from outside the store', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-watch-out-'));
    fs.mkdirSync(path.join(outside, 'tree/sub'), { recursive: true });
    const change = nextChange();
    fs.renameSync(path.join(outside, 'tree'), path.join(root, 'tree'));
    await change;
    await until(() => watch!.folders.includes('tree/sub'));
    const write = nextChange();
    fs.writeFileSync(path.join(root, 'tree/sub/b.md'), 'b');
    await write;
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
