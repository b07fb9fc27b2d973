/**
 * Files and selections that travel with the next chat message ("Add File to Chat", the active
 * editor's selection): removable chips in the input. At send time each becomes a fenced block in
 * the prompt, read from the open document when there is one (so unsaved text is what Claude sees).
 */
import type * as vscode from 'vscode';
import type { ChatAttachment } from './shared/protocol';

/** Larger files are named, not inlined: Claude can read them with its own tools. */
export const MAX_ATTACHMENT_CHARS = 200_000;
/** More chips than this replace the oldest one. */
export const MAX_ATTACHMENTS = 10;

export interface Attachment extends ChatAttachment {
  readonly uri: vscode.Uri;
  /** A selection; the whole file when undefined. */
  readonly range?: vscode.Range;
  /** The name Claude knows the file by: `/memories/...` for memory, else folder-relative. */
  readonly shownPath: string;
}

/** Where `uri` is, as Claude and the user read it: a `/memories` path, folder-relative, or its name. */
export type PathNamer = (uri: vscode.Uri) => string;

export class ChatAttachments {
  private items: Attachment[] = [];
  private next = 1;
  /** The active editor's file (or selection): goes with the next message unless removed. */
  private current: Attachment | undefined;
  /** The file whose automatic chip the user removed; it comes back for another file. */
  private dismissed: string | undefined;

  constructor(private readonly name: PathNamer) {}

  list(): readonly Attachment[] {
    const current = this.current && !this.items.some((a) => attachmentKey(a.uri, a.range) === attachmentKey(this.current!.uri, this.current!.range)) ? [this.current] : [];
    return [...current, ...this.items];
  }

  /**
   * Follows the active editor: its file, or its selection when there is one. Undefined clears it.
   * Returns true when the chips changed.
   */
  follow(uri: vscode.Uri | undefined, selection: vscode.Range | undefined): boolean {
    if (!uri) {
      const changed = this.current !== undefined;
      this.current = undefined;
      return changed;
    }
    if (this.dismissed !== undefined && this.dismissed !== uri.toString()) this.dismissed = undefined;
    if (this.dismissed === uri.toString()) return false;
    const range = selection && !selection.isEmpty ? selection : undefined;
    if (this.current && attachmentKey(this.current.uri, this.current.range) === attachmentKey(uri, range)) return false;
    this.current = { ...this.make(uri, range), current: true };
    return true;
  }

  /** Adds a file or a selection; the same file (and range) twice is one chip. */
  add(uri: vscode.Uri, range?: vscode.Range): Attachment {
    const key = attachmentKey(uri, range);
    const existing = this.items.find((a) => attachmentKey(a.uri, a.range) === key);
    if (existing) return existing;
    const item = this.make(uri, range);
    this.items.push(item);
    if (this.items.length > MAX_ATTACHMENTS) this.items.shift();
    return item;
  }

  private make(uri: vscode.Uri, range: vscode.Range | undefined): Attachment {
    const shownPath = this.name(uri);
    const base = shownPath.slice(shownPath.lastIndexOf('/') + 1) || shownPath;
    const lines = range ? (range.start.line === range.end.line ? `${range.start.line + 1}` : `${range.start.line + 1}-${range.end.line + 1}`) : undefined;
    return {
      id: `a${this.next++}`,
      label: lines ? `${base}:${lines}` : base,
      detail: lines ? `${shownPath}, lines ${lines}` : shownPath,
      uri,
      range,
      shownPath,
    };
  }

  remove(id: string): boolean {
    if (this.current?.id === id) {
      this.dismissed = this.current.uri.toString();
      this.current = undefined;
      return true;
    }
    const before = this.items.length;
    this.items = this.items.filter((a) => a.id !== id);
    return this.items.length !== before;
  }

  /** Hands the chips to a send and empties the input's list (the active editor's chip stays). */
  take(): Attachment[] {
    const taken = [...this.list()];
    this.items = [];
    return taken;
  }

  clear(): void {
    this.items = [];
  }
}

function attachmentKey(uri: vscode.Uri, range: vscode.Range | undefined): string {
  return `${uri.toString()}#${range ? `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}` : ''}`;
}
