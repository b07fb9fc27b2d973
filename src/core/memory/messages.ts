/**
 * Every model-facing string of the memory tool, in one place. Strings marked (docs) are quoted
 * verbatim from the memory tool documentation because the model was trained on them; the rest
 * are this project's own, each one clear sentence without host paths.
 */
import type { MemoryCommandName } from './types';

export const COMMAND_NAMES: readonly MemoryCommandName[] = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'];

export const MAX_VIEW_LINES = 999_999;

export const messages = {
  // ---- view (docs)
  listingHeader: (path: string) =>
    `Here're the files and directories up to 2 levels deep in ${path}, excluding hidden items and node_modules:`,
  fileHeader: (path: string) => `Here's the content of ${path} with line numbers:`,
  tooManyLines: (path: string) => `File ${path} exceeds maximum line limit of 999,999 lines.`,
  viewMissing: (path: string) => `The path ${path} does not exist. Please provide a valid path.`,
  // ---- view (ours)
  emptyFile: '(the file is empty)',
  imageHeader: (path: string, size: string, mediaType: string) => `Here's the image ${path} (${size}, ${mediaType}):`,
  viewTruncated: (shownLastLine: number, totalLines: number, limit: number) =>
    `[Output truncated: showing lines up to ${shownLastLine} of ${totalLines} because views are limited to ${limit} characters. ` +
    `Call view with view_range [${shownLastLine + 1}, -1] (or a narrower range) to read on.]`,
  lineCut: (line: number, limit: number) =>
    `[Line ${line} is longer than the ${limit}-character view limit and was cut; the rest of that line cannot be shown.]`,
  unnamedEntries: (count: number) =>
    `[${count} ${count === 1 ? 'entry is' : 'entries are'} not shown: ${count === 1 ? 'its name holds' : 'their names hold'} control characters, so no memory path can name ${count === 1 ? 'it' : 'them'}. The user can rename ${count === 1 ? 'it' : 'them'} in the editor.]`,
  listingTruncated: (hidden: number, limit: number) =>
    `[Listing truncated: ${hidden} more entries not shown because views are limited to ${limit} characters. View a subfolder to see them.]`,
  invalidViewRange: (range: string, reason: string) => `Error: Invalid \`view_range\` parameter: ${range}. ${reason}`,
  viewRangeOnDirectory: 'Error: The `view_range` parameter is not allowed when `path` points to a directory.',
  viewRangeOnImage: 'Error: The `view_range` parameter applies to text files only, not to images.',
  notText: (path: string) =>
    `Error: ${path} is not a UTF-8 text file; the memory tool can only show and edit UTF-8 text files and .png, .jpg, .jpeg, .gif and .webp images.`,
  imageMismatch: (path: string, expected: string, actual: string) =>
    `Error: ${path} has an image file extension but its content is ${actual}, not ${expected}; it cannot be shown.`,
  imageTooLarge: (path: string, size: string, limit: string) =>
    `Error: The image ${path} is ${size}, larger than the ${limit} that can be shown.`,
  fileTooLargeToRead: (path: string, size: string, limit: string) =>
    `Error: The file ${path} is ${size}, larger than the ${limit} the memory tool reads.`,

  // ---- create (docs + ours)
  created: (path: string) => `File created successfully at: ${path}`,
  createExists: (path: string) => `Error: File ${path} already exists`,
  createOnDirectory: (path: string) => `Error: The path ${path} is a directory; create can only write files.`,
  parentIsFile: (path: string, parent: string) =>
    `Error: Cannot create ${path} because ${parent} is a file, not a directory.`,

  // ---- str_replace (docs)
  edited: 'The memory file has been edited.',
  editSnippetIntro: 'Here is the snippet showing the change (with line numbers):',
  strReplaceMissing: (path: string) => `Error: The path ${path} does not exist. Please provide a valid path.`,
  noMatch: (oldStr: string, path: string) =>
    `No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.`,
  multipleMatches: (oldStr: string, lines: readonly number[]) =>
    `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines: ${lines.join(', ')}. Please ensure it is unique`,

  // ---- insert (docs)
  inserted: (path: string) => `The file ${path} has been edited.`,
  invalidInsertLine: (line: number, nLines: number) =>
    `Error: Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${nLines}]`,
  pathMissing: (path: string) => `Error: The path ${path} does not exist`,

  // ---- delete / rename (docs + ours)
  deleted: (path: string) => `Successfully deleted ${path}`,
  renamed: (from: string, to: string) => `Successfully renamed ${from} to ${to}`,
  destinationExists: (path: string) => `Error: The destination ${path} already exists`,
  cannotDeleteRoot: 'Error: Cannot delete the /memories directory itself',
  cannotRenameRoot: 'Error: Cannot rename the /memories directory itself',
  cannotWriteRoot: 'Error: Cannot create or overwrite the /memories directory itself; choose a file path below /memories.',
  moveIntoItself: (from: string, to: string) => `Error: Cannot move ${from} into itself (${to}).`,

  // ---- paths
  pathNotString: (param: string) => `Error: Parameter \`${param}\` must be a string path starting with /memories.`,
  outsideRoot: (shown: string) => `Error: The path ${shown} is outside the memory directory; every path must start with /memories/.`,
  traversal: (shown: string) => `Error: The path ${shown} contains a \`..\` segment; paths may not step out of their folder.`,
  backslash: (shown: string) => `Error: The path ${shown} contains a backslash; use / to separate folders.`,
  controlChar: (shown: string) => `Error: The path ${shown} contains a control character.`,
  encodedSeparator: (shown: string) =>
    `Error: The path ${shown} contains a percent-encoded dot, slash, backslash, percent sign or control character, which is not allowed.`,
  pathTooLong: (maxChars: number) => `Error: The path is longer than ${maxChars} characters.`,
  nameTooLong: (shown: string, maxBytes: number) => `Error: The path ${shown} has a name longer than ${maxBytes} bytes.`,
  windowsForbidden: (shown: string) =>
    `Error: The path ${shown} uses a name that is not allowed in memory file names (the characters < > : " | ? * or a Windows device name such as nul or com1).`,
  trailingDotOrSpace: (shown: string) =>
    `Error: The path ${shown} has a name ending in a dot or a space, which is not allowed in memory file names.`,
  reservedName: (shown: string) => `Error: The path ${shown} uses a name reserved for the memory tool's temporary files.`,
  symlink: (path: string) =>
    `Error: The path ${path} is or passes through a symbolic link; the memory tool does not follow links.`,
  notAFile: (path: string) => `Error: The path ${path} is not a regular file.`,
  metaFolder: (shown: string) =>
    `Error: The path ${shown} is inside /memories/.meta, the memory store's private folder (its lock); the memory tool cannot view or change anything there.`,

  // ---- limits
  fileTooLarge: (path: string, size: string, limit: string) =>
    `Error: Writing ${path} would make it ${size}, over the per-file limit of ${limit}. Nothing was written; split the content across several files.`,
  quotaExceeded: (total: string, quota: string) =>
    `Error: This write would bring the memory store to ${total}, over its quota of ${quota}. Nothing was written; delete or shorten memory files first.`,

  // ---- redaction
  redacted: (summary: string) =>
    `Note: secrets were replaced with [REDACTED:<kind>] placeholders before writing (${summary}); store references to secrets, never the secrets themselves.`,

  // ---- input validation
  inputNotObject: 'Error: The memory tool input must be a JSON object with a `command` field.',
  commandMissing: `Error: Parameter \`command\` is required; use one of: ${['view', 'create', 'str_replace', 'insert', 'delete', 'rename'].join(', ')}.`,
  unknownCommand: (shown: string) =>
    `Error: Unknown command ${shown}; use one of: view, create, str_replace, insert, delete, rename.`,
  paramRequired: (param: string, command: string) => `Error: Parameter \`${param}\` is required for command \`${command}\`.`,
  paramType: (param: string, command: string, expected: string) =>
    `Error: Parameter \`${param}\` of command \`${command}\` must be ${expected}.`,
  emptyOldStr: 'Error: Parameter `old_str` of command `str_replace` must not be empty.',

  // ---- operational
  storeBusy: (seconds: number) =>
    `Error: The memory store is busy: another program writing to it (another VS Code window, a claude-memory command) held its lock for ${seconds} s. Nothing was changed; try the same call again in a moment.`,
  changedMeanwhile: (path: string) =>
    `Error: ${path} was changed by someone else while this edit was being made, twice in a row. Nothing was written; view the file again and redo the edit.`,
  cancelled: 'Error: The memory operation was cancelled before it started; nothing was changed.',
  fsFailure: (path: string, reason: string) => `Error: The memory store could not complete the operation on ${path}: ${reason}.`,
  internal: (command: string) => `Error: The memory tool failed unexpectedly while running \`${command}\`.`,
} as const;

/** Plain sentences for adapter error codes: the adapter's own message may hold a host path. */
export const FS_ERROR_REASONS = {
  FileNotFound: 'it does not exist (it may have been removed meanwhile)',
  FileExists: 'something already exists there',
  FileNotADirectory: 'a part of the path is a file, not a directory',
  FileIsADirectory: 'it is a directory',
  NoPermissions: 'permission was denied',
  Unavailable: 'the storage is unavailable right now',
  Unknown: 'an unexpected file-system error occurred',
} as const;
