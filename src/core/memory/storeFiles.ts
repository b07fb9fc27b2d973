/**
 * The store's files as documents (MCP resources): the files the memory tool's listing shows, and
 * a file's whole content as it is on disk (not the numbered view). Same doors as the engine's
 * commands: `/memories` path parsing, SafeStore (no symbolic links, model-safe errors), the read
 * size cap; an image is returned only when its bytes match its extension.
 */
import { MemoryError } from './errors';
import type { MemoryFileSystem } from './fileSystem';
import { formatSize } from './format';
import { MAX_IMAGE_BYTES, imageTypeOfPath, sniffImageType, toBase64 } from './images';
import { messages } from './messages';
import { displayOf, parseMemoryPath } from './paths';
import { MAX_READ_BYTES } from './commands/readText';
import { SafeStore } from './store';
import { decodeText } from './text';
import type { ImageMediaType } from './types';

export interface StoreFile {
  /** `/memories/...` */
  path: string;
  size: number;
  mtime: number;
}

export type StoreFileContent = { kind: 'text'; text: string } | { kind: 'image'; mediaType: ImageMediaType; base64: string };

/** Listings stop here: a client asking for resources must not make us walk a huge tree. */
export const MAX_LISTED_FILES = 1000;

/**
 * Every regular file below `/memories`, depth-first in code-unit order, leaving out what the
 * listing leaves out (dot-names, node_modules, links and the engine's temp files).
 */
export async function listStoreFiles(fs: MemoryFileSystem, limit = MAX_LISTED_FILES): Promise<StoreFile[]> {
  const store = new SafeStore(fs);
  if ((await store.inspect('')).kind !== 'directory') return [];
  const files: StoreFile[] = [];
  await store.walk('', async (entry) => {
    if (files.length >= limit || entry.name.startsWith('.') || entry.name === 'node_modules') return false;
    if (entry.type === 'file') {
      const stat = await fs.stat(entry.rel).catch(() => undefined);
      if (stat) files.push({ path: displayOf(entry.rel), size: stat.size, mtime: stat.mtime });
    }
    return true;
  });
  return files;
}

/** One file's content; a MemoryError (with a model-safe sentence) when it cannot be read. */
export async function readStoreFile(fs: MemoryFileSystem, memoryPath: string): Promise<StoreFileContent> {
  const path = parseMemoryPath(memoryPath);
  const store = new SafeStore(fs);
  const inspection = await store.inspect(path.rel);
  if (inspection.kind !== 'file') throw new MemoryError(messages.viewMissing(path.display));
  const size = inspection.stat.size;
  const imageType = imageTypeOfPath(path.rel);
  const cap = imageType ? MAX_IMAGE_BYTES : MAX_READ_BYTES;
  if (size > cap) throw new MemoryError(messages.fileTooLargeToRead(path.display, formatSize(size), formatSize(cap)));
  const bytes = await store.readFile(path.rel);
  if (imageType) {
    const actual = sniffImageType(bytes);
    if (actual !== imageType) throw new MemoryError(messages.imageMismatch(path.display, imageType, actual ?? 'not an image'));
    return { kind: 'image', mediaType: imageType, base64: toBase64(bytes) };
  }
  const decoded = decodeText(bytes);
  if (decoded === undefined) throw new MemoryError(messages.notText(path.display));
  return { kind: 'text', text: decoded.text };
}
