/**
 * Memory files as MCP resource URIs: `/memories/notes/a b.md` ⇄ `memory:///memories/notes/a%20b.md`.
 * The URI's path is the tool's path, percent-encoded per segment, so a client can pass what it
 * lists straight to the tool.
 */
import { MEMORY_ROOT } from '../../core/memory/types';

export const RESOURCE_SCHEME = 'memory';

export function resourceUriOf(memoryPath: string): string {
  return `${RESOURCE_SCHEME}://${memoryPath.split('/').map(encodeURIComponent).join('/')}`;
}

/** The `/memories/...` path of a resource URI of ours, or undefined for any other URI. */
export function memoryPathOfResourceUri(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${RESOURCE_SCHEME}:` || url.host !== '' || url.search !== '' || url.hash !== '') return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  // The engine's path rules (traversal, links, names) apply when the file is read.
  return path === MEMORY_ROOT || path.startsWith(`${MEMORY_ROOT}/`) ? path : undefined;
}
