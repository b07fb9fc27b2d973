/** Names users type in the Memory tree. Pure, so it is tested in plain Node. */
import { displayOf, joinRel, MAX_NAME_BYTES, parseMemoryPath } from '../../core/memory/paths';

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[<>:"|?*\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Why `input` cannot name a new entry under the store-relative folder `parentRel`, or undefined.
 * `nested` allows `a/b.md` (new files and folders); renames take one name.
 */
export function invalidEntryNameReason(input: string, parentRel: string, nested: boolean): string | undefined {
  const name = input.trim();
  if (name === '') return 'Enter a name.';
  if (name.includes('\\')) return 'Use / to separate folders, not \\.';
  if (!nested && name.includes('/')) return 'A name cannot contain /.';
  for (const segment of name.split('/')) {
    if (segment === '') return 'Remove the empty folder name (a leading, trailing or double /).';
    if (segment === '.' || segment === '..') return `"${segment}" is not a valid name.`;
    if (segment.startsWith('.')) return 'Names starting with "." are hidden from the Memory tree and from Claude.';
    if (FORBIDDEN.test(segment)) return 'These characters are not allowed: < > : " | ? * and control characters.';
    if (Buffer.byteLength(segment, 'utf8') > MAX_NAME_BYTES) return `A name can be at most ${MAX_NAME_BYTES} bytes long.`;
    if (segment !== segment.trim()) return 'A name cannot start or end with a space.';
  }
  try {
    // The engine's own path rules, so the agent can later reach everything a user creates.
    parseMemoryPath(displayOf(joinRel(parentRel, name)));
  } catch {
    return 'Claude could not use this path; choose a shorter or simpler name.';
  }
  return undefined;
}

/** The store-relative path of a validated name under `parentRel`. */
export function entryRel(parentRel: string, input: string): string {
  return joinRel(parentRel, input.trim());
}
