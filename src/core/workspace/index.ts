/** The workspace tools' pure core: the text editor over a folder, and the shell-command rules. */
export { TextEditorTool, DEFAULT_EDITOR_MAX_CHARACTERS, type EditWritePolicy, type TextEditorToolOptions } from './editor';
export type { EditorDocuments } from './documents';
export { EDITOR_TOOL, editorMessages } from './messages';
export { parseWorkspacePath, type WorkspaceFolderInfo, type WorkspacePath } from './paths';
