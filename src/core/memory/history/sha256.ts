import * as crypto from 'node:crypto';

/** node:crypto's one-shot hash (Node 20.12+, 21.7+): no Hash object per call. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: 'hex') => string }).hash;

/**
 * SHA-256 of `bytes` as hex. node:crypto, synchronously: WebCrypto's digest goes through the
 * thread pool, and history hashes two or three contents of a few KiB per change, where the round
 * trip costs far more than the hash. (Core runs in Node: the CLI and VS Code's extension host.)
 */
export function sha256HexSync(bytes: Uint8Array): string {
  return oneShot !== undefined ? oneShot('sha256', bytes, 'hex') : crypto.createHash('sha256').update(bytes).digest('hex');
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return sha256HexSync(bytes);
}
