/** `delete`: a file, or a folder with everything below it; never the root. */
import type { CommandHandler } from '../context';
import { MemoryError } from '../errors';
import { messages } from '../messages';
import { parseMemoryPath } from '../paths';

export const deletePath: CommandHandler<'delete'> = async (ctx, input) => {
  const path = parseMemoryPath(input.path);
  if (path.isRoot) throw new MemoryError(messages.cannotDeleteRoot);
  const inspection = await ctx.store.inspect(path.rel);
  if (inspection.kind === 'missing') throw new MemoryError(messages.pathMissing(path.display));
  await ctx.guards.checkDelete(path.rel);
  const bytes = await ctx.store.sizeOf(path.rel);
  try {
    await ctx.store.delete(path.rel);
  } catch (e) {
    ctx.quota.invalidate();
    throw e;
  }
  ctx.quota.applied(-bytes);
  return { is_error: false, content: messages.deleted(path.display), touched: { kind: 'delete', path: path.display } };
};
