/**
 * `rename`: moves a file or folder; never the root, never onto an existing path, never a folder
 * into itself. Every check runs before anything changes, so a failed rename creates nothing.
 */
import type { CommandHandler } from '../context';
import { MemoryError } from '../errors';
import { messages } from '../messages';
import { displayOf, isSameOrInside, parentOf, parseMemoryPath } from '../paths';

export const rename: CommandHandler<'rename'> = async (ctx, input) => {
  const from = parseMemoryPath(input.old_path, 'old_path');
  const to = parseMemoryPath(input.new_path, 'new_path');
  if (from.isRoot) throw new MemoryError(messages.cannotRenameRoot);
  const source = await ctx.store.inspect(from.rel);
  if (source.kind === 'missing') throw new MemoryError(messages.pathMissing(from.display));
  if (to.rel !== from.rel && isSameOrInside(to.rel, from.rel)) {
    throw new MemoryError(messages.moveIntoItself(from.display, to.display));
  }
  const target = await ctx.store.inspect(to.rel);
  if (target.kind !== 'missing') throw new MemoryError(messages.destinationExists(to.display));
  if (target.blockedBy !== undefined) {
    throw new MemoryError(messages.parentIsFile(to.display, displayOf(target.blockedBy)));
  }
  await ctx.guards.checkRename(from.rel, to.rel);
  const targetParent = parentOf(to.rel);
  if ((await ctx.store.inspect(targetParent)).kind === 'missing') {
    await ctx.store.ensureDirectory(targetParent);
  }
  await ctx.store.rename(from.rel, to.rel);
  return {
    is_error: false,
    content: messages.renamed(from.display, to.display),
    touched: { kind: 'rename', path: from.display, newPath: to.display },
  };
};
