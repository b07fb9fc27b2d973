/**
 * Model-supplied editor paths → workspace-folder-relative paths, or an EditorError sentence.
 *
 * Accepted: the folder's absolute path or a path below it (`/home/u/app/src/a.ts`), or a path
 * relative to the folder (`src/a.ts`). Empty and `.` segments collapse. Refused, each with a plain
 * sentence: non-strings, control characters, backslashes, any `..` segment (even one that would
 * stay inside: refusing is simpler to verify than resolving), absolute paths outside the folder,
 * anything inside a `.git` folder (git's internals: hooks there run code), and the memory folder
 * (and `/memories`): memory goes through the memory tool, whose checklist guard, redaction and
 * caps must not be bypassed. Symbolic links are refused later, per component, by the store.
 */
import { MemoryError } from '../memory/errors';
import { MAX_NAME_BYTES, showRawPath } from '../memory/paths';
import { MEMORY_ROOT } from '../memory/types';
import { editorMessages } from './messages';

export const MAX_EDITOR_PATH_CHARS = 4096;

export interface WorkspaceFolderInfo {
  /** The folder's name (workspace folder name or the CLI's folder basename). */
  readonly name: string;
  /** Its absolute path with `/` separators and no trailing slash, as the model is told it. */
  readonly root: string;
  /** The memory folder's name inside it (`.claude-memories`). */
  readonly memoryFolder: string;
}

export interface WorkspacePath {
  /** Folder-relative POSIX path; `''` is the folder itself. */
  readonly rel: string;
  /** Absolute form shown to the model. */
  readonly display: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const DRIVE = /^[A-Za-z]:\//;

export function parseWorkspacePath(raw: unknown, folder: WorkspaceFolderInfo): WorkspacePath {
  if (typeof raw !== 'string' || raw === '') throw new MemoryError(editorMessages.pathNotString(folder.root));
  if (raw.length > MAX_EDITOR_PATH_CHARS) throw new MemoryError(editorMessages.pathTooLong(MAX_EDITOR_PATH_CHARS));
  const shown = showRawPath(raw);
  if (CONTROL_CHARS.test(raw)) throw new MemoryError(editorMessages.controlChar(shown));
  if (raw.includes('\\')) throw new MemoryError(editorMessages.backslash(shown));
  if (raw === MEMORY_ROOT || raw.startsWith(`${MEMORY_ROOT}/`)) throw new MemoryError(editorMessages.memoryFolder(shown));
  let rest: string;
  if (raw.startsWith('/') || DRIVE.test(raw)) {
    if (raw === folder.root || raw === `${folder.root}/`) rest = '';
    else if (raw.startsWith(`${folder.root}/`)) rest = raw.slice(folder.root.length + 1);
    else throw new MemoryError(editorMessages.outside(shown, folder.root));
  } else {
    rest = raw;
  }
  const segments = rest.split('/').filter((s) => s !== '' && s !== '.');
  for (const segment of segments) {
    if (segment === '..') throw new MemoryError(editorMessages.traversal(shown));
    // Case-folded: on case-insensitive disks `.GIT` and `.Claude-Memories` are the same folders.
    if (segment.toLowerCase() === '.git') throw new MemoryError(editorMessages.gitInternals(shown));
    if (new TextEncoder().encode(segment).length > MAX_NAME_BYTES) throw new MemoryError(editorMessages.nameTooLong(shown, MAX_NAME_BYTES));
  }
  if (segments.length > 0 && segments[0].toLowerCase() === folder.memoryFolder.toLowerCase()) {
    throw new MemoryError(editorMessages.memoryFolder(shown));
  }
  const rel = segments.join('/');
  return { rel, display: displayOfWorkspace(folder, rel) };
}

export function displayOfWorkspace(folder: Pick<WorkspaceFolderInfo, 'root'>, rel: string): string {
  return rel === '' ? folder.root : `${folder.root}/${rel}`;
}
