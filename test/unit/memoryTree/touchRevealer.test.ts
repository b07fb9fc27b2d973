import * as assert from 'assert';
import type * as vscode from 'vscode';
import type { MemoryTouch } from '../../../src/platform/memoryActivity';
import type { MemoryStore } from '../../../src/platform/memoryStores';
import type { MemoryNode } from '../../../src/features/memoryTree/memoryTreeNodes';
import { TouchRevealer, type RevealerStores, type RevealerTree, type RevealerView } from '../../../src/features/memoryTree/touchRevealer';

/** Lets every queued promise continuation and I/O callback run (a turn of the event loop, no clock). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The tree, view and stores as the revealer sees them, recording in `log` the order in which the
 * store's change signal, the tree's refresh and the reveals happen.
 */
function fakes() {
  const log: string[] = [];
  const folder = { uri: { toString: () => 'file:///ws' }, name: 'ws', index: 0 } as unknown as vscode.WorkspaceFolder;
  const store = { key: 'file:///ws', folder } as unknown as MemoryStore;
  let writePending = false;
  const refreshListeners = new Set<() => void>();
  let revealed: (() => void) | undefined;
  let duringReveal: (() => void) | undefined;
  const tree: RevealerTree = {
    markedTouch: undefined,
    noteTouch: () => undefined,
    redrawTouched: async () => undefined,
    whenIdle: async () => undefined,
    nodeForMemoryPath: async (_store, memoryPath) => ({ kind: 'file', store, rel: memoryPath.replace('/memories/', ''), uri: {} }) as MemoryNode,
    onDidRefresh: ((listener: () => void) => {
      refreshListeners.add(listener);
      return { dispose: () => refreshListeners.delete(listener) };
    }) as vscode.Event<void>,
  };
  const view: RevealerView = {
    visible: true,
    reveal: async (node: MemoryNode, options?: { select?: boolean }) => {
      log.push(`reveal ${node.rel}${options?.select ? ' selected' : ''}`);
      const during = duringReveal;
      duringReveal = undefined;
      during?.();
      revealed?.();
    },
  };
  const stores: RevealerStores = { forFolder: () => store, writePending: () => writePending };
  const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const revealer = new TouchRevealer(tree, view, stores, logger);
  return {
    log,
    store,
    revealer,
    touch: (path: string, kind: MemoryTouch['kind'] = 'write'): MemoryTouch => ({ kind, path: `/memories/${path}`, folder }),
    /** The engine wrote: its change signal (and the tree's refresh) is still to come. */
    write: () => (writePending = true),
    /** The store's change signal came and the tree refreshed for it. */
    refresh: () => {
      writePending = false;
      log.push('refresh');
      for (const l of [...refreshListeners]) l();
    },
    /** Runs `what` while the next reveal is under way (once). */
    duringNextReveal: (what: () => void) => (duringReveal = what),
    nextReveal: () => new Promise<void>((resolve) => (revealed = resolve)),
  };
}

describe('revealing what the agent touched in the Memory tree', () => {
  it('a burst of written touches is one reveal, of the last touch, after the refresh for the write', async () => {
    const f = fakes();
    const revealed = f.nextReveal();
    f.write();
    f.revealer.onTouch(f.touch('a.md'));
    f.revealer.onTouch(f.touch('b.md'));
    f.revealer.onTouch(f.touch('c.md'));
    await settle();
    assert.deepStrictEqual(f.log, [], 'nothing is revealed while the tree has not refreshed for the write');
    f.refresh();
    await revealed;
    await settle();
    assert.deepStrictEqual(f.log, ['refresh', 'reveal c.md']);
    assert.strictEqual(f.revealer.lastRevealed?.rel, 'c.md');
  });

  it('a touch during the wait for a refresh joins the same reveal when its write is signalled with it', async () => {
    const f = fakes();
    const revealed = f.nextReveal();
    f.write();
    f.revealer.onTouch(f.touch('a.md'));
    await settle();
    f.revealer.onTouch(f.touch('b.md'));
    f.refresh();
    await revealed;
    await settle();
    assert.deepStrictEqual(f.log, ['refresh', 'reveal b.md']);
  });

  it('a read (no write pending) is revealed at once; a delete is not revealed', async () => {
    const f = fakes();
    const revealed = f.nextReveal();
    f.revealer.onTouch(f.touch('gone.md', 'delete'));
    f.revealer.onTouch(f.touch('read.md', 'read'));
    await revealed;
    assert.deepStrictEqual(f.log, ['reveal read.md']);
  });

  it('an entry the user created is selected after the refresh for its write', async () => {
    const f = fakes();
    f.write();
    const done = f.revealer.revealCreated(f.store, '/memories/new.md');
    await settle();
    assert.deepStrictEqual(f.log, []);
    f.refresh();
    assert.strictEqual(await done, true);
    assert.deepStrictEqual(f.log, ['refresh', 'reveal new.md selected']);
  });

  it('a redraw while the reveal runs (it may undo it) is followed by the reveal again, after the redraw', async () => {
    const f = fakes();
    f.write();
    const done = f.revealer.revealCreated(f.store, '/memories/new.md');
    f.duringNextReveal(() => f.refresh());
    f.refresh();
    assert.strictEqual(await done, true);
    assert.deepStrictEqual(f.log, ['refresh', 'reveal new.md selected', 'refresh', 'reveal new.md selected']);
  });

  it('nothing is revealed after the revealer is disposed', async () => {
    const f = fakes();
    f.write();
    f.revealer.onTouch(f.touch('a.md'));
    f.revealer.dispose();
    f.refresh();
    await settle();
    assert.deepStrictEqual(f.log, ['refresh']);
  });
});
