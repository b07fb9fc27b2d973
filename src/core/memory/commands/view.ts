/** `view`: a 2-level directory listing, a numbered text view, or an image. */
import type { CommandContext, CommandHandler } from '../context';
import { MemoryError } from '../errors';
import { formatSize } from '../format';
import { MAX_IMAGE_BYTES, imageTypeOfPath, sniffImageType, toBase64 } from '../images';
import { MAX_VIEW_LINES, messages } from '../messages';
import { joinRel, META_FOLDER, parseMemoryPath, type MemoryPath } from '../paths';
import { FileType } from '../fileSystem';
import { displayLines } from '../text';
import { numberedBody, truncateListing } from '../truncate';
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
  const lines = displayLines(file.text);
  if (lines.length > MAX_VIEW_LINES) throw new MemoryError(messages.tooManyLines(path.display));
  const [start, end] = resolveRange(input.view_range, lines.length);
  const header = messages.fileHeader(path.display);
  const body =
    lines.length === 0
      ? messages.emptyFile
      : numberedBody(lines.slice(start - 1, end), start, lines.length, ctx.options.viewCharLimit);
  return { is_error: false, content: `${header}\n${body}`, touched };
};

/** 1-based inclusive [start, end] to show, validating `view_range` against the file. */
function resolveRange(range: [number, number] | undefined, total: number): [number, number] {
  if (range === undefined) return [1, total];
  const [start, end] = range;
  const shown = `[${start}, ${end}]`;
  if (total === 0) throw new MemoryError(messages.invalidViewRange(shown, 'The file is empty; view it without `view_range`.'));
  if (start < 1 || start > total) {
    throw new MemoryError(
      messages.invalidViewRange(shown, `Its first element \`${start}\` should be within the range of lines of the file: [1, ${total}].`),
    );
  }
  if (end === -1) return [start, total];
  if (end < start) {
    throw new MemoryError(
      messages.invalidViewRange(shown, `Its second element \`${end}\` should be -1 or at least the first element \`${start}\`.`),
    );
  }
  if (end > total) {
    throw new MemoryError(
      messages.invalidViewRange(shown, `Its second element \`${end}\` should be at most the number of lines in the file, ${total} (or -1 for the end).`),
    );
  }
  return [start, end];
}

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
 * never entered. Folders end in `/`. A size is du-like: a file's byte size, a folder's total of
 * all regular files below it (hidden ones included, links not followed).
 */
async function listDirectory(ctx: CommandContext, path: MemoryPath): Promise<string> {
  const rows: { size: number; shown: string }[] = [];
  const relativeTo = (rel: string) => rel.slice(path.rel === '' ? 0 : path.rel.length + 1);
  const scan = async (dir: string, depth: number, visible: boolean): Promise<number> => {
    const entries = await ctx.store.readDirectory(dir);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    let total = 0;
    for (const [name, type] of entries) {
      if (type & FileType.SymbolicLink) continue;
      const rel = joinRel(dir, name);
      if (rel === META_FOLDER) continue;
      const show = visible && depth <= 2 && !name.startsWith('.') && name !== 'node_modules';
      if (type & FileType.Directory) {
        const row = { size: 0, shown: `${path.display}/${relativeTo(rel)}/` };
        if (show) rows.push(row);
        row.size = await scan(rel, depth + 1, show);
        total += row.size;
      } else if (type & FileType.File) {
        const size = await ctx.store.fileSize(rel);
        if (show) rows.push({ size, shown: `${path.display}/${relativeTo(rel)}` });
        total += size;
      }
    }
    return total;
  };
  const total = await scan(path.rel, 1, true);
  const lines = [`${formatSize(total)}\t${path.display}`, ...rows.map((r) => `${formatSize(r.size)}\t${r.shown}`)];
  return `${messages.listingHeader(path.display)}\n${truncateListing(lines, ctx.options.viewCharLimit)}`;
}
