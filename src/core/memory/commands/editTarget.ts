/**
 * The read-modify-write frame that `insert` and `str_replace` share: both edit an existing text
 * file in place, so they read it the same way and write it back with the same write request.
 */
import type { CommandContext } from '../context';
import { MemoryError } from '../errors';
import { parseMemoryPath, type MemoryPath } from '../paths';
import { writeText, type WrittenText } from '../writer';
import { readExistingText, type ExistingText } from './readText';

/** An existing text file an edit command is about to rewrite. */
export interface EditTarget {
  path: MemoryPath;
  file: ExistingText;
}

/**
 * Parses `rawPath` and reads the text file there. `missing` words the error when there is no file
 * at the path: the two commands answer that case with different (API-specified) messages.
 */
export async function readEditTarget(ctx: CommandContext, rawPath: unknown, missing: (display: string) => string): Promise<EditTarget> {
  const path = parseMemoryPath(rawPath);
  const inspection = await ctx.store.inspect(path.rel);
  if (inspection.kind !== 'file') throw new MemoryError(missing(path.display));
  const file = await readExistingText(ctx, path.rel, inspection.stat.size);
  return { path, file };
}

/** Writes `after` over the file read by readEditTarget, through the single text write path. */
export function rewriteEditTarget(ctx: CommandContext, command: 'insert' | 'str_replace', target: EditTarget, after: string): Promise<WrittenText> {
  return writeText(ctx, {
    command,
    rel: target.path.rel,
    before: target.file.text,
    beforeBytes: target.file.bytes,
    after,
    bom: target.file.bom,
    overwrite: true,
    expected: target.file.raw,
  });
}
