import type { MemoryFileSystem } from './fileSystem';
import { joinRel, parentOf, TEMP_NAME_PREFIX } from './paths';

let tempCounter = 0;

/**
 * Writes `content` to `<folder>/.~tmp-<unique>` and renames it over `rel`, so a reader (the
 * agent, a file watcher's re-read, a crash) never sees a half-written file. With
 * `overwrite: false` an existing target fails with FsError FileExists and nothing changes. Errors
 * are the adapter's own; the temp file is removed when the write or the rename fails.
 * `beforeRename` runs once the new content is safely in the temp file, right before it replaces
 * the target: the last moment to find out that the target changed since it was read (it throws
 * to abandon the write).
 */
export async function writeAtomically(
  fs: MemoryFileSystem,
  rel: string,
  content: Uint8Array,
  overwrite: boolean,
  beforeRename?: () => Promise<void>,
): Promise<void> {
  const unique = `${Date.now().toString(36)}-${(tempCounter++).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const temp = joinRel(parentOf(rel), `${TEMP_NAME_PREFIX}${unique}`);
  try {
    await fs.writeFile(temp, content);
    await beforeRename?.();
    await fs.rename(temp, rel, { overwrite });
  } catch (e) {
    // A half-written or unrenamed temp file must not linger (it would count against the quota).
    await fs.delete(temp, { recursive: false }).catch(() => undefined);
    throw e;
  }
}
