/**
 * Model-facing strings of the workspace text editor (`text_editor_20250728`). Those marked (ref)
 * follow Anthropic's reference implementation of the tool, which the model was trained on; the
 * text logic shared with the memory tool (view ranges, str_replace matches, insert lines) words
 * its own errors in src/core/memory/messages.ts, identically for both tools.
 */
export const EDITOR_TOOL = { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' } as const;
export const EDITOR_COMMANDS = ['view', 'create', 'str_replace', 'insert'] as const;

export const editorMessages = {
  // ---- results (ref)
  fileHeader: (path: string) => `Here's the result of running \`cat -n\` on ${path}:`,
  listingHeader: (path: string) =>
    `Here're the files and directories up to 2 levels deep in ${path}, excluding hidden items, node_modules and what .gitignore or files.exclude hide:`,
  created: (path: string) => `File created successfully at: ${path}`,
  edited: (path: string, snippet: string) =>
    `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n${snippet}\n` +
    'Review the changes and make sure they are as expected. Edit the file again if necessary.',
  missing: (path: string) => `The path ${path} does not exist. Please provide a valid path.`,
  createExists: (path: string) => `Error: File already exists at: ${path}. Cannot overwrite files using command \`create\`.`,
  // ---- ours
  inputNotObject: 'Error: The str_replace_based_edit_tool input must be a JSON object with a `command` field.',
  unknownCommand: (shown: string) => `Error: Unknown command ${shown}; use one of: ${EDITOR_COMMANDS.join(', ')}.`,
  isDirectory: (path: string, command: string) => `Error: The path ${path} is a directory; \`${command}\` works on files only.`,
  notAFile: (path: string) => `Error: The path ${path} is not a regular file.`,
  parentIsFile: (path: string, parent: string) => `Error: Cannot create ${path} because ${parent} is a file, not a directory.`,
  notText: (path: string) => `Error: ${path} is not a UTF-8 text file; the editor can only show and edit UTF-8 text.`,
  tooLargeToRead: (path: string, size: string, limit: string) => `Error: The file ${path} is ${size}, larger than the ${limit} the editor reads.`,
  tooLargeToWrite: (path: string, size: string, limit: string) => `Error: Writing ${path} would make it ${size}, over the editor's limit of ${limit}; nothing was written.`,
  protectedPath: (path: string, reason: string, how: string) =>
    `Error: ${path} is a protected place: ${reason}. The editor writes there only with the user's approval of this one write; nothing was changed. ${how}`,
  gitLayout: (path: string, folder: string) =>
    `Error: writing ${path} would give ${folder} the layout of a git repository (HEAD, objects/ and refs/), whose configuration git would then run; the editor never creates one. Nothing was changed.`,
  declined: (path: string, said?: string) => `Error: the user declined this edit of ${path}; nothing was changed.${said ? ` The user said: ${said}` : ''}`,
  // ---- paths
  pathNotString: (root: string) => `Error: Parameter \`path\` must be a string: a path in the workspace folder ${root}, absolute or relative to it.`,
  pathTooLong: (max: number) => `Error: The path is longer than ${max} characters.`,
  nameTooLong: (shown: string, max: number) => `Error: The path ${shown} has a name longer than ${max} bytes.`,
  controlChar: (shown: string) => `Error: The path ${shown} contains a control character.`,
  backslash: (shown: string) => `Error: The path ${shown} contains a backslash; use / to separate folders.`,
  outside: (shown: string, root: string) =>
    `Error: The path ${shown} is outside the workspace folder ${root}; give a path inside it, absolute or relative to it.`,
  traversal: (shown: string) => `Error: The path ${shown} contains a \`..\` segment; paths may not step out of their folder.`,
  gitInternals: (shown: string) => `Error: The path ${shown} is inside .git, git's own data; use git commands through the bash tool instead.`,
  memoryFolder: (shown: string) => `Error: The path ${shown} is Claude's memory: use the memory tool for /memories.`,
  symlink: (path: string) => `Error: The path ${path} is or passes through a symbolic link; the editor does not follow links.`,
  fsFailure: (path: string, reason: string) => `Error: The editor could not complete the operation on ${path}: ${reason}.`,
  internal: (command: string) => `Error: The editor failed unexpectedly while running \`${command}\`; nothing is known to have changed.`,
  cancelled: 'Error: The edit was cancelled before it ran; nothing was changed.',
} as const;

/** A workspace edit the user undid from its chat card since Claude's last turn. */
export interface UndoneEdit {
  /** Folder-relative path. */
  path: string;
  /** The edit created the file, so undoing it removed the file. */
  created: boolean;
}

/**
 * The note that opens the user's next message after they undid Claude's edits from the chat, so
 * Claude does not go on believing its change is there. Undefined when nothing was undone.
 */
export function undoneEditsNote(undone: readonly UndoneEdit[]): string | undefined {
  if (undone.length === 0) return undefined;
  const lines = undone.map((u) =>
    u.created ? `- ${u.path}: the file you created was removed.` : `- ${u.path}: the file is back to its content before your edit.`,
  );
  return `[Note from the chat: since your last turn the user undid ${undone.length === 1 ? 'your edit' : 'these edits of yours'} with the chat's Undo. View a file again before relying on it.\n${lines.join('\n')}]`;
}
