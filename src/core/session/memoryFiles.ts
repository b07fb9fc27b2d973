/**
 * The three files of the multi-session pattern (initializer, progress log, feature checklist,
 * startup notes), in `/memories/...` form and as store-relative paths.
 */
import { MEMORY_ROOT } from '../memory/types';

export const SESSION_FILES = {
  progress: 'progress.md',
  features: 'features.json',
  startup: 'startup.md',
} as const;

export type SessionFileKey = keyof typeof SESSION_FILES;

/** `/memories/progress.md` etc.: the paths the agent (and the write guards) see. */
export function memoryPathOf(key: SessionFileKey): string {
  return `${MEMORY_ROOT}/${SESSION_FILES[key]}`;
}

/** Store-relative files memory expiry never deletes: the routine's state lives in them. */
export const NEVER_EXPIRING_FILES: readonly string[] = Object.values(SESSION_FILES);
