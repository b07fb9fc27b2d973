/** `view`: a 2-level directory listing, a numbered text view, or an image. */
import type { CommandContext, CommandHandler } from '../context';
import { MemoryError } from '../errors';
import { formatSize } from '../format';
import { MAX_IMAGE_BYTES, imageTypeOfPath, sniffImageType, toBase64 } from '../images';
import { messages } from '../messages';
import { CONTROL_CHARS, joinRel, META_FOLDER, parseMemoryPath, type MemoryPath } from '../paths';
import { FileType } from '../fileSystem';
import { numberedView } from '../textEdits';
import { truncateListing } from '../truncate';
import type { ImageMediaType, MemoryToolResult } from '../types';
import { readExistingText } from './readText';

export const view: CommandHandler<'view'> = async (ctx, input) => {
  const path = parseMemoryPath(input.path);
  const inspection = await ctx.store.inspect(path.rel);
  const touched = { kind: 'read', path: path.display } as const;
  if (inspection.kind === 'directory') {
    if (input.view_range) throw new MemoryError(messages.viewRangeOnDirectory);
    return { is_error: false, content: await listDirectory(ctx, path), touched };
  }
  if (inspection.kind !== 'file') {
    throw new MemoryError(messages.viewMissing(path.display));
  }
  const imageType = imageTypeOfPath(path.rel);
  if (imageType !== undefined) {
    if (input.view_range) throw new MemoryError(messages.viewRangeOnImage);
    return { ...(await viewImage(ctx, path, inspection.stat.size, imageType)), touched };
  }
  const file = await readExistingText(ctx, path.rel, inspection.stat.size);
  const content = numberedView(messages.fileHeader(path.display), path.display, file.text, input.view_range, ctx.options.viewCharLimit);
  return { is_error: false, content, touched };
};

async function viewImage(
  ctx: CommandContext,
  path: MemoryPath,
  size: number,
  expected: ImageMediaType,
): Promise<Pick<MemoryToolResult, 'is_error' | 'content'>> {
  if (size > MAX_IMAGE_BYTES) {
    throw new MemoryError(messages.imageTooLarge(path.display, formatSize(size), formatSize(MAX_IMAGE_BYTES)));
  }
  const bytes = await ctx.store.readFile(path.rel);
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new MemoryError(messages.imageTooLarge(path.display, formatSize(bytes.length), formatSize(MAX_IMAGE_BYTES)));
  }
  const actual = sniffImageType(bytes);
  if (actual !== expected) {
    throw new MemoryError(messages.imageMismatch(path.display, `a ${expected} image`, actual ? `a ${actual} image` : 'not a recognised image'));
  }
  return {
    is_error: false,
    content: [
      { type: 'text', text: messages.imageHeader(path.display, formatSize(bytes.length), expected) },
      { type: 'image', source: { type: 'base64', media_type: expected, data: toBase64(bytes) } },
    ],
  };
}

/**
 * Header, the folder's own line, then entries up to 2 levels deep in depth-first order with
 * names sorted by code unit; hidden names, node_modules and symbolic links are left out and
 * never entered, and so are names with control characters (counted in a last line). Folders end in `/`. A size is du-like: a file's byte size, a folder's total of
 * all regular files below it (hidden ones included, links not followed).
 */
async function listDirectory(ctx: CommandContext, path: MemoryPath): Promise<string> {
  const rows: { size: number; shown: string }[] = [];
  let unnamed = 0;
  const relativeTo = (rel: string) => rel.slice(path.rel === '' ? 0 : path.rel.length + 1);
  const scan = async (dir: string, depth: number, visible: boolean): Promise<number> => {
    // Each entry with its stat in one pass (the folder confined once, not once per file).
    const entries = await ctx.store.readDirectoryStats(dir);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    let total = 0;
    for (const [name, { type, size }] of entries) {
      if (type & FileType.SymbolicLink) continue;
      const rel = joinRel(dir, name);
      if (rel === META_FOLDER) continue;
      // A name no memory path can hold (a newline would also forge a row of the listing) is counted, not shown.
      const nameable = !CONTROL_CHARS.test(name);
      if (!nameable && visible && depth <= 2 && !name.startsWith('.')) unnamed++;
      const show = visible && nameable && depth <= 2 && !name.startsWith('.') && name !== 'node_modules';
      if (type & FileType.Directory) {
        const row = { size: 0, shown: `${path.display}/${relativeTo(rel)}/` };
        if (show) rows.push(row);
        row.size = await scan(rel, depth + 1, show);
        total += row.size;
      } else if (type & FileType.File) {
        if (show) rows.push({ size, shown: `${path.display}/${relativeTo(rel)}` });
        total += size;
      }
    }
    return total;
  };
  const total = await scan(path.rel, 1, true);
  const lines = [`${formatSize(total)}\t${path.display}`, ...rows.map((r) => `${formatSize(r.size)}\t${r.shown}`)];
  const listing = `${messages.listingHeader(path.display)}\n${truncateListing(lines, ctx.options.viewCharLimit)}`;
  return unnamed > 0 ? `${listing}\n${messages.unnamedEntries(unnamed)}` : listing;
}
