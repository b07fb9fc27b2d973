/** Words for the Memory tree's descriptions and tooltips. Pure, so it is tested in plain Node. */
import { formatSize } from '../core/memory/format';

export { formatSize };

/** "just now", "5 min ago", "3 h ago", "2 days ago", or a date for anything older than a month. */
export function formatAge(mtime: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - mtime) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 31) return `${days} days ago`;
  return new Date(mtime).toISOString().slice(0, 10);
}

/** `1.2K · 5 min ago` for files, `5 min ago` for folders. */
export function describeEntry(kind: 'file' | 'folder', size: number, mtime: number, now: number): string {
  const age = formatAge(mtime, now);
  return kind === 'file' ? `${formatSize(size)} · ${age}` : age;
}

const TOUCH_VERBS = { read: 'read', write: 'wrote', delete: 'deleted', rename: 'moved' } as const;

/** "Claude wrote" etc. for the file the agent last touched. */
export function touchLabel(kind: keyof typeof TOUCH_VERBS, writer = 'Claude'): string {
  return `${writer} ${TOUCH_VERBS[kind]}`;
}

/** Names the tree lists: dot-names are hidden (the engine's temporary files, .git and the like). */
export function isVisibleName(name: string): boolean {
  return !name.startsWith('.');
}

/** Folders first, then names in natural order ("note2" before "note10"). */
export function compareEntries(a: { name: string; isFolder: boolean }, b: { name: string; isFolder: boolean }): number {
  if (a.isFolder !== b.isFolder) return a.isFolder ? -1 : 1;
  return a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
