/**
 * What changed in each workspace file between two trees, for the chat's change summary: how
 * (modified, created, deleted), its +/− lines and the content id it has now. Pure parsing of
 * what git reports (`diff-tree --raw -z` and `diff-tree -p --text -U0`).
 */

/** One workspace file that differs between a checkpoint and now. */
export interface FileDelta {
  path: string;
  change: 'modified' | 'created' | 'deleted';
  added: number;
  removed: number;
  /** The content has a NUL byte (git's test): its line counts mean nothing. */
  binary?: true;
  /** The file's object id now ('' when it is deleted): what a Keep is remembered against. */
  stamp: string;
}

const ZERO = /^0+$/;

/**
 * `git diff-tree -r -z --no-renames --raw THEN NOW`: `:<mode> <mode> <old> <new> <status>\0<path>\0`
 * records → the files, in git's order (by path), without line counts yet.
 */
export function parseRaw(records: readonly string[]): FileDelta[] {
  const out: FileDelta[] = [];
  for (let i = 0; i + 1 < records.length; i += 2) {
    const fields = records[i].replace(/^:/, '').split(' ');
    const path = records[i + 1];
    const status = fields[4]?.trim() ?? 'M';
    const stamp = fields[3] ?? '';
    const change = status === 'A' ? 'created' : status === 'D' ? 'deleted' : 'modified';
    out.push({ path, change, added: 0, removed: 0, stamp: change === 'deleted' || ZERO.test(stamp) ? '' : stamp });
  }
  return out;
}

/**
 * Adds the line counts of `git diff-tree -r -p --text -U0 --no-renames THEN NOW` to `files`
 * (the same diff's --raw records, in the same order: one `diff --git` section per file). A
 * section with a NUL byte marks its file binary.
 */
export function addLineCounts(files: readonly FileDelta[], patch: string): FileDelta[] {
  const out = files.map((f) => ({ ...f }));
  let index = -1;
  let inHunks = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      index++;
      inHunks = false;
      continue;
    }
    const file = out[index];
    if (file === undefined) continue;
    if (line.startsWith('@@')) {
      inHunks = true;
      continue;
    }
    // Before the first hunk: the header (---/+++ lines, modes, index).
    if (!inHunks) continue;
    if (line.includes('\0')) file.binary = true;
    if (line.startsWith('+')) file.added++;
    else if (line.startsWith('-')) file.removed++;
  }
  for (const f of out) {
    if (f.binary) {
      f.added = 0;
      f.removed = 0;
    }
  }
  return out;
}
