/**
 * The chat's port: everything the chat's parts (the send runner, persistence, approvals, the
 * session factory, folder choice, rewinds) need from VS Code and the rest of the extension. Only
 * types here; chatEnvironment.ts is the one VS Code-facing implementation, and the unit tests pass
 * a fake one, so no part calls `vscode.*` itself.
 */
import type * as vscode from 'vscode';
import type { ChatArchive } from '../../core/session/chatArchive';
import type { MemoryToolExecutor, TouchedPath } from '../../core/memory/types';
import type { ToolApprover } from '../../core/agent/tools';
import type { CheckpointStore } from '../../core/checkpoints';
import type { WorkspaceFolderInfo } from '../../core/workspace/paths';
import type { Logger } from '../../platform/logger';
import type { SettingsSnapshot } from '../../platform/settings';
import type { WorkspaceTools } from '../../platform/workspaceTools';
import type { ChatAuthor } from './chatMemory';
import type { Attachment, PathNamer } from './chatAttachments';
import type { ChatEdits } from './chatEdits';
import type { ChangeSummaryPort } from './changeSummary';
import type { SavedConversation } from './chatTranscript';
import type { KeyState } from './shared/protocol';

/** A workspace folder, as the chat's parts pass it around. */
export type ChatFolder = vscode.WorkspaceFolder;
export type ChatUri = vscode.Uri;
export type ChatRange = vscode.Range;
export type ChatEvent<T> = vscode.Event<T>;
export type ChatDisposable = vscode.Disposable;

/** An event source (VS Code's EventEmitter in the extension). */
export interface ChatEmitter<T> {
  readonly event: ChatEvent<T>;
  fire(data: T): void;
  dispose(): void;
}

/** What the chat does with the workspace edits on its cards (ChatEdits: Open Diff, Undo). */
export type EditLedger = Pick<ChatEdits, 'record' | 'get' | 'clear' | 'undo' | 'openDiff' | 'dispose'>;

/** The memory store the chat works in: one workspace folder's (the first unless the user chose another). */
export interface ChatStore {
  readonly folder: vscode.WorkspaceFolder;
  /** The folder's memory as the chat's agent calls it, each call made by `author()` (chatMemory.ts). */
  memory(author: () => ChatAuthor): MemoryToolExecutor;
  /** The Uri of a `/memories/...` path, or undefined when the path is not a valid one. */
  uriOf(memoryPath: string): vscode.Uri | undefined;
  /** A store file's text (`progress.md`...), undefined when missing: what is reloaded after a compaction. */
  readFile?(name: string): Promise<string | undefined>;
}

/** What the chat needs from the rest of the extension (adapted from ExtensionServices in registerChat). */
export interface ChatEnvironment {
  readonly log: Logger;
  apiKey(): Promise<string | undefined>;
  settings(): Readonly<SettingsSnapshot>;
  /** The store of the workspace folder `folder`, or the first folder's when `folder` is undefined. */
  store(folder: vscode.Uri | undefined): ChatStore | undefined;
  isTrusted(): boolean;
  memoryTouched(store: ChatStore, touched: TouchedPath): void;
  keyState(): Promise<KeyState>;
  /** Fires when the stored key is set or cleared. */
  readonly onDidChangeKey: vscode.Event<void>;
  /** The workspace's state (where New Chat kept one conversation before Chat History). */
  readonly state: vscode.Memento;
  /** Chat History: every conversation of this workspace, kept across window reloads. */
  readonly archive: ChatArchive<SavedConversation>;
  /** How an attached file is named to Claude and on its chip. */
  readonly pathOf: PathNamer;
  /**
   * The text editor and bash tools for a folder (one set per chat session: one shell per chat);
   * they ask `approver` before a write or a command that no rule allows.
   */
  workspaceTools?(folder: vscode.WorkspaceFolder, approver: ToolApprover): WorkspaceTools;
  /** The compaction edit's instructions (media/templates/compaction-instructions.md). */
  compactionInstructions?(): Promise<string | undefined>;
  /** The folder's checkpoints (src/core/checkpoints); undefined where git cannot reach the folder. */
  checkpoints?(folder: vscode.WorkspaceFolder): Promise<CheckpointStore> | undefined;
  /** What the change summary above the composer works through (changeSummaryUi.ts); undefined: no summary. */
  readonly changeSummary?: ChangeSummaryPort;
  /** The open workspace folder whose Uri string is `uri`; undefined when it is not open. */
  folderOf(uri: string): vscode.WorkspaceFolder | undefined;
  /** How the tools name `folder` (editor cards name files relative to it). */
  folderInfo(folder: vscode.WorkspaceFolder, memoryFolder: string): WorkspaceFolderInfo;
  /** The prompt Claude gets: the user's text, then one block per attachment, read from the editor or disk. */
  promptWithAttachments(text: string, attachments: readonly Attachment[]): Promise<string>;
  /** A new event source. */
  emitter<T>(): ChatEmitter<T>;
  /** The ledger of the workspace edits shown on cards (one per controller; disposed with it). */
  createEdits(): EditLedger;
  /** Turns the "a chat answer is running" context key on or off. */
  setRunning(running: boolean): void;
  /** Starts the chat view's progress indicator; the function returned ends it. */
  startProgress(): () => void;
}
