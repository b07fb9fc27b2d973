/** Image files that `view` returns as image blocks, recognised by extension and magic bytes. */
import type { ImageMediaType } from './types';

/** API limit is 5 MB of base64 per image: 3.75 MiB of raw bytes encode to exactly 5 MiB. */
export const MAX_IMAGE_BYTES = 3.75 * 1024 * 1024;

const EXTENSIONS: Record<string, ImageMediaType> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** Media type implied by the path's extension, if it names an image. */
export function imageTypeOfPath(rel: string): ImageMediaType | undefined {
  const dot = rel.lastIndexOf('.');
  const slash = rel.lastIndexOf('/');
  if (dot <= slash + 1) return undefined;
  return EXTENSIONS[rel.slice(dot).toLowerCase()];
}

/** Media type proven by the content's magic bytes. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

export function toBase64(bytes: Uint8Array): string {
  // btoa needs a binary string; chunk to keep the argument list small.
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
