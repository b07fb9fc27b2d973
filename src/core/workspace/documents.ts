/**
 * Files open in an editor. The host (VS Code) implements it over its text documents so that the
 * editor tool reads what the user sees (unsaved changes included) and writes through the editor's
 * own undo stack; the CLI has none. Paths are folder-relative (`src/a.ts`).
 */
export interface EditorDocuments {
  /** The open document's current text (unsaved changes included), or undefined when it is not open. */
  openText(rel: string): string | undefined;
  /**
   * Changes the open document from `before` (what openText returned) to `after` as one edit the
   * user can undo (Ctrl+Z). Saves the document only when it had no unsaved changes before, so the
   * user's own unsaved work is kept, never written or overwritten behind their back.
   * Resolves 'changed' (the document moved on since `before`: nothing was applied) or 'applied'.
   */
  replace(rel: string, before: string, after: string): Promise<'applied' | 'changed' | 'closed'>;
}
