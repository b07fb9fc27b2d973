/** `create`: a new file (missing folders are created), or an overwrite under createPolicy 'overwrite'. */
import type { CommandHandler } from '../context';
import { MemoryError } from '../errors';
import { messages } from '../messages';
import { displayOf, parseMemoryPath } from '../paths';
import { decodeText } from '../text';
import { withNote, writeText } from '../writer';

export const create: CommandHandler<'create'> = async (ctx, input) => {
  const path = parseMemoryPath(input.path);
  if (path.isRoot) throw new MemoryError(messages.cannotWriteRoot);
  const inspection = await ctx.store.inspect(path.rel);
  let before: string | undefined;
  let beforeBytes = 0;
  switch (inspection.kind) {
    case 'directory':
      throw new MemoryError(messages.createOnDirectory(path.display));
    case 'other':
      throw new MemoryError(messages.notAFile(path.display));
    case 'missing':
      if (inspection.blockedBy !== undefined) {
        throw new MemoryError(messages.parentIsFile(path.display, displayOf(inspection.blockedBy)));
      }
      break;
    case 'file': {
      if (ctx.options.createPolicy === 'error') throw new MemoryError(messages.createExists(path.display));
      beforeBytes = inspection.stat.size;
      if (!ctx.guards.isEmpty) {
        const bytes = await ctx.store.readFile(path.rel);
        before = decodeText(bytes)?.text ?? new TextDecoder().decode(bytes);
      }
      break;
    }
  }
  const exists = inspection.kind === 'file';
  const written = await writeText(ctx, {
    command: 'create',
    rel: path.rel,
    before,
    beforeBytes,
    after: input.file_text,
    bom: false,
    overwrite: exists,
    createParent: !exists,
  });
  return {
    is_error: false,
    content: withNote(messages.created(path.display), written.redactionNote),
    touched: { kind: 'write', path: path.display },
  };
};
