/** Reading an existing text file for a command, refusing images, binaries and non-UTF-8. */
import type { CommandContext } from '../context';
import { MemoryError } from '../errors';
import { formatSize } from '../format';
import { messages } from '../messages';
import { displayOf } from '../paths';
import { decodeText, type DecodedText } from '../text';

/** Files above this are never read whole into memory (users can drop anything in the folder). */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

export interface ExistingText extends DecodedText {
  bytes: number;
  /** Exactly what was read: compared with the disk again right before the write. */
  raw: Uint8Array;
}

export async function readExistingText(ctx: CommandContext, rel: string, size: number): Promise<ExistingText> {
  const display = displayOf(rel);
  if (size > MAX_READ_BYTES) {
    throw new MemoryError(messages.fileTooLargeToRead(display, formatSize(size), formatSize(MAX_READ_BYTES)));
  }
  const bytes = await ctx.store.readFile(rel);
  const decoded = decodeText(bytes);
  if (decoded === undefined) throw new MemoryError(messages.notText(display));
  return { ...decoded, bytes: bytes.length, raw: bytes };
}
