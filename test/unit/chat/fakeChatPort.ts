/**
 * A fake of the chat's port (ChatEnvironment, src/features/chat/chatPort.ts) for plain-Node unit
 * tests of the chat's parts: folders and stores in memory, Chat History on blobs in a map, the
 * key, trust and settings settable, and a record of what the parts asked VS Code to do (the
 * running context key, the progress indicator, edits, log lines).
 */
import type { ChatEmitter, ChatEnvironment, ChatEvent, ChatFolder, ChatStore, ChatUri, EditLedger } from '../../../src/features/chat/chatPort';
import type { EditRecord, UndoResult } from '../../../src/features/chat/chatEdits';
import type { KeyState } from '../../../src/features/chat/shared/protocol';
import type { MemoryToolExecutor } from '../../../src/core/memory/types';
import type { SettingsSnapshot } from '../../../src/platform/settings';
import type { WorkspaceTools } from '../../../src/platform/workspaceTools';
import type { ToolApprover } from '../../../src/core/agent/tools';
import type { CheckpointStore } from '../../../src/core/checkpoints';
import { DEFAULT_SETTINGS } from '../../../src/platform/settingsParse';
import { ChatArchive, type ChatBlobs } from '../../../src/core/session/chatArchive';
import { parseSavedConversation, savedConversationRows, type SavedConversation } from '../../../src/features/chat/chatTranscript';

/** VS Code's EventEmitter, as far as the chat uses it. */
export class FakeEmitter<T> implements ChatEmitter<T> {
  private listeners: Array<(data: T) => unknown> = [];
  disposed = false;
  readonly event: ChatEvent<T> = (listener: (data: T) => unknown) => {
    this.listeners.push(listener);
    return { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(data: T): void {
    for (const listener of [...this.listeners]) listener(data);
  }
  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

export function fakeUri(value: string): ChatUri {
  const uri = {
    scheme: 'file',
    path: value.replace(/^file:\/\//, ''),
    fsPath: value.replace(/^file:\/\//, ''),
    toString: () => value,
  };
  return uri as unknown as ChatUri;
}

export function fakeFolder(name: string, index = 0): ChatFolder {
  return { uri: fakeUri(`file:///ws/${name}`), name, index } as ChatFolder;
}

/** A store whose files (`features.json`...) are in a map; its memory tool is never called here. */
export function fakeStore(folder: ChatFolder, files = new Map<string, string>()): ChatStore & { authors: Array<() => unknown> } {
  const authors: Array<() => unknown> = [];
  return {
    folder,
    authors,
    memory: (author) => {
      authors.push(author);
      return { execute: async () => ({ content: 'unused', is_error: false }) } as unknown as MemoryToolExecutor;
    },
    uriOf: (memoryPath) => fakeUri(`${folder.uri.toString()}/.claude-memories${memoryPath.replace(/^\/memories/, '')}`),
    readFile: async (name) => files.get(name),
  };
}

/** Blobs in a map, as the extension's workspace storage holds them. */
export function memoryBlobs(): ChatBlobs & { files: Map<string, string>; written: string[]; onWrite?: () => void; failWrites?: boolean } {
  const files = new Map<string, string>();
  const written: string[] = [];
  const blobs: ChatBlobs & { files: Map<string, string>; written: string[]; onWrite?: () => void; failWrites?: boolean } = {
    files,
    written,
    read: async (name) => files.get(name),
    write: async (name, text) => {
      if (blobs.failWrites) throw new Error('disk full');
      written.push(name);
      files.set(name, text);
      blobs.onWrite?.();
    },
    delete: async (name) => void files.delete(name),
  };
  return blobs;
}

export function chatArchive(blobs: ChatBlobs = memoryBlobs()): ChatArchive<SavedConversation> {
  return new ChatArchive(blobs, parseSavedConversation, undefined, savedConversationRows);
}

/** A Memento in a map. */
export function fakeMemento(initial: Record<string, unknown> = {}): ChatEnvironment['state'] & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>(Object.entries(initial));
  return {
    values,
    keys: () => [...values.keys()],
    get: <T>(key: string, defaultValue?: T) => (values.has(key) ? (values.get(key) as T) : defaultValue),
    update: async (key: string, value: unknown) => {
      if (value === undefined) values.delete(key);
      else values.set(key, value);
    },
  } as ChatEnvironment['state'] & { values: Map<string, unknown> };
}

/** The edits the chat recorded, by card. */
export class FakeEdits implements EditLedger {
  readonly records = new Map<string, EditRecord>();
  undoResult: UndoResult = { ok: true };
  readonly undone: string[] = [];
  readonly diffs: string[] = [];
  disposed = false;
  record(entryId: string, edit: EditRecord): void {
    this.records.set(entryId, edit);
  }
  get(entryId: string): EditRecord | undefined {
    return this.records.get(entryId);
  }
  clear(): void {
    this.records.clear();
  }
  async undo(entryId: string): Promise<UndoResult> {
    this.undone.push(entryId);
    return this.records.has(entryId) ? this.undoResult : { ok: false, reason: 'unknown edit' };
  }
  async openDiff(entryId: string): Promise<boolean> {
    this.diffs.push(entryId);
    return this.records.has(entryId);
  }
  dispose(): void {
    this.disposed = true;
  }
}

export interface FakePort extends ChatEnvironment {
  folders: ChatFolder[];
  stores: Map<string, ChatStore>;
  key: KeyState;
  trusted: boolean;
  currentSettings: SettingsSnapshot;
  readonly keyChanges: FakeEmitter<void>;
  readonly logs: string[];
  /** Every setRunning call, in order. */
  readonly runningContext: boolean[];
  /** Progress indicators started and ended. */
  readonly progress: { started: number; ended: number };
  readonly edits: FakeEdits[];
  readonly state: ReturnType<typeof fakeMemento>;
  /** Tool sets made, per folder name, and how many were disposed. */
  readonly toolSets: Array<{ folder: string; disposed: boolean; sandboxedAllowed: boolean }>;
  checkpointStore?: CheckpointStore;
}

export interface FakePortOptions {
  folders?: ChatFolder[];
  stores?: ChatStore[];
  archive?: ChatArchive<SavedConversation>;
  state?: ReturnType<typeof fakeMemento>;
  key?: KeyState;
  settings?: Partial<SettingsSnapshot>;
  tools?: boolean;
}

export function fakePort(options: FakePortOptions = {}): FakePort {
  const folders = options.folders ?? [fakeFolder('a')];
  const stores = new Map<string, ChatStore>();
  for (const store of options.stores ?? folders.map((f) => fakeStore(f))) stores.set(store.folder.uri.toString(), store);
  const logs: string[] = [];
  const log = (level: string) => (message: string | Error) => void logs.push(`${level}: ${message instanceof Error ? message.message : message}`);
  const keyChanges = new FakeEmitter<void>();
  const toolSets: FakePort['toolSets'] = [];
  const port: FakePort = {
    folders,
    stores,
    key: options.key ?? 'stored',
    trusted: true,
    currentSettings: { ...DEFAULT_SETTINGS, ...options.settings },
    keyChanges,
    logs,
    runningContext: [],
    progress: { started: 0, ended: 0 },
    edits: [],
    toolSets,
    log: { trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    apiKey: async () => (port.key === 'missing' ? undefined : 'sk-ant-test'),
    settings: () => port.currentSettings,
    store: (folder) => {
      const open = folder ? port.folders.find((f) => f.uri.toString() === folder.toString()) : port.folders[0];
      return open ? port.stores.get(open.uri.toString()) : undefined;
    },
    isTrusted: () => port.trusted,
    memoryTouched: () => undefined,
    keyState: async () => port.key,
    onDidChangeKey: keyChanges.event,
    state: options.state ?? fakeMemento(),
    archive: options.archive ?? chatArchive(),
    pathOf: (uri) => uri.toString().replace(/^file:\/\/\/ws\/[^/]+\//, ''),
    workspaceTools: options.tools
      ? (folder: ChatFolder, _approver: ToolApprover) => {
          const set = { folder: folder.name, disposed: false, sandboxedAllowed: false };
          toolSets.push(set);
          return {
            tools: [],
            systemPrompt: `tools of ${folder.name}`,
            allowSandboxedCommands: () => void (set.sandboxedAllowed = true),
            dispose: () => void (set.disposed = true),
          } as unknown as WorkspaceTools;
        }
      : undefined,
    checkpoints: (folder) => (port.checkpointStore && port.folders.includes(folder) ? Promise.resolve(port.checkpointStore) : undefined),
    folderOf: (uri) => port.folders.find((f) => f.uri.toString() === uri),
    folderInfo: (folder, memoryFolder) => ({ name: folder.name, root: folder.uri.path, memoryFolder }),
    promptWithAttachments: async (text, attachments) => (attachments.length === 0 ? text : `${text}\n\n${attachments.map((a) => `Attached ${a.shownPath}`).join('\n\n')}`),
    emitter: <T>() => new FakeEmitter<T>(),
    createEdits: () => {
      const edits = new FakeEdits();
      port.edits.push(edits);
      return edits;
    },
    setRunning: (running) => void port.runningContext.push(running),
    startProgress: () => {
      port.progress.started += 1;
      return () => void (port.progress.ended += 1);
    },
  };
  return port;
}

/** A promise and its resolve, to let a fake finish when the test says so. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
