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
  /** The active editor's file (or selection): goes with the next message unless turned off. */
  private current: Attachment | undefined;
  /** The file whose implicit chip the user turned off; another file's chip is on again. */
  private offFor: string | undefined;

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
    if (this.offFor !== undefined && this.offFor !== uri.toString()) this.offFor = undefined;
    const range = selection && !selection.isEmpty ? selection : undefined;
    if (this.current && attachmentKey(this.current.uri, this.current.range) === attachmentKey(uri, range)) return false;
    this.current = { ...this.make(uri, range), current: true, ...(this.offFor === uri.toString() ? { off: true } : {}) };
    return true;
  }

  /**
   * Turns the implicit chip (the active editor's) off or back on; it stays visible either way.
   * Off, it is not sent, until another file becomes the active editor's. False for any other id.
   */
  toggle(id: string): boolean {
    const current = this.current;
    if (current?.id !== id) return false;
    const off = current.off !== true;
    this.offFor = off ? current.uri.toString() : undefined;
    const { off: _was, ...rest } = current;
    this.current = off ? { ...rest, off: true } : rest;
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
    // The implicit chip is turned off, not removed: one click brings it back.
    if (this.current?.id === id) return this.current.off === true ? false : this.toggle(id);
    const before = this.items.length;
    this.items = this.items.filter((a) => a.id !== id);
    return this.items.length !== before;
  }

  /** Hands the chips to a send and empties the input's list (the active editor's chip stays; when off it is not sent). */
  take(): Attachment[] {
    const taken = this.list().filter((a) => a.off !== true);
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
