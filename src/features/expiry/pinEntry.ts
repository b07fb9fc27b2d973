import { displayOf } from '../../core/memory/paths';
import type { MemoryExpiry } from '../../platform/memoryExpiry';
import { reportFailure, targetNode, type TreeCommandContext } from '../memoryTree';

/**
 * Pin / Unpin a memory file: a pinned file never expires. Kept in the store's private folder
 * (`.meta/pins.json`), so every window and the CLI see it; the pin follows a rename.
 */
export async function pinEntry(ctx: TreeCommandContext, expiry: MemoryExpiry, arg: unknown, pinned: boolean): Promise<boolean> {
  const node = targetNode(ctx, arg);
  if (!node || node.kind !== 'file') return false;
  if (!ctx.services.trust.requireTrust(pinned ? 'Pinning memory files' : 'Unpinning memory files')) return false;
  try {
    await node.store.engine.setPinned(node.rel, pinned);
  } catch (e) {
    reportFailure(ctx, `${pinned ? 'Pinning' : 'Unpinning'} ${displayOf(node.rel)}`, e);
    return false;
  }
  ctx.services.logger('expiry').info(`user ${pinned ? 'pinned' : 'unpinned'} ${displayOf(node.rel)} in ${node.store.folder.name}`);
  // Not left to the file watcher: the menu must offer the other action right away.
  await expiry.refresh();
  return true;
}
