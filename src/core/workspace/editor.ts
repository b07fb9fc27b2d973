/**
 * Anthropic's text editor client tool (`text_editor_20250728`, `str_replace_based_edit_tool`) over
 * one workspace folder. It runs on the same MemoryFileSystem shape and SafeStore as the memory
 * engine (folder-relative paths, every component checked for links, adapter errors turned into
 * sentences) and shares the memory tool's text logic (textEdits.ts): one numbered view, one
 * unique-match str_replace, one insert.
 *
 * Differences from the memory tool, on purpose: writes go in place (a source file keeps its mode
 * and identity, as an editor's save does), secrets are not redacted (this is the user's code), an
 * open document is read and changed through EditorDocuments, and every write passes the write
 * policy: apply, ask the approver, or refuse with the host's sentence (Restricted Mode, the CLI
 * without --allow-edits).
 */
import type { BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { answerOf, type AgentTool, type AgentToolLabel, type AgentToolResult, type ToolApprover, type ToolCallContext } from '../agent/tools';
import { MemoryError, isMemoryError } from '../memory/errors';
import type { MemoryFileSystem } from '../memory/fileSystem';
import { formatSize, formatSizePair } from '../memory/format';
import { describeValue, readParams, type ParamSpec } from '../memory/input';
import { SerialQueue } from '../memory/mutex';
import { parentOf } from '../memory/paths';
import { SafeStore, type Inspection } from '../memory/store';
import { countLines, decodeText, encodeText } from '../memory/text';
import { editSnippet, insertLines, numberedView, replaceUnique, type Replacement } from '../memory/textEdits';
import type { EditorDocuments } from './documents';
import { listFolder } from './listing';
import { EDITOR_COMMANDS, EDITOR_TOOL, editorMessages } from './messages';
import { displayOfWorkspace, parseWorkspacePath, type WorkspaceFolderInfo, type WorkspacePath } from './paths';
import { GIT_LAYOUT, gitLayoutCandidates, protectedReason } from './protectedPaths';

/** Files above this are never read whole (a folder can hold anything). */
export const EDITOR_MAX_READ_BYTES = 16 * 1024 * 1024;
/** Largest file an edit may produce. */
export const EDITOR_MAX_WRITE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_EDITOR_MAX_CHARACTERS = 16_000;

/** What the host allows for writes, asked before every write (trust and settings can change). */
export type EditWritePolicy = { mode: 'apply' } | { mode: 'ask' } | { mode: 'refuse'; reason: string };

/**
 * Writes to protected places (protectedPaths.ts): `ask` the approver for that one write (the
 * chat), `apply` like any write (the CLI's --allow-edits-protected), or refuse, `how` saying what
 * would allow it.
 */
export type ProtectedWritePolicy = { mode: 'ask' } | { mode: 'apply' } | { mode: 'refuse'; how: string };

export interface TextEditorToolOptions {
  /** Rooted at the workspace folder: `''` is the folder. */
  fs: MemoryFileSystem;
  folder: WorkspaceFolderInfo;
  /** `max_characters` of the tool definition, and the cut of every view. */
  maxCharacters?: number;
  writePolicy(): EditWritePolicy;
  /** Default: ask the approver (refused without one). */
  protectedWrites?(): ProtectedWritePolicy;
  /** Asked with kind 'edit' when the policy is 'ask'. */
  approver?: ToolApprover;
  documents?: EditorDocuments;
  /** `files.exclude` patterns (gitignore syntax) that folder views leave out. */
  excludes?(): readonly string[];
  onInternalError?(error: unknown): void;
}

type EditorInput =
  | { command: 'view'; path: string; view_range?: [number, number] }
  | { command: 'create'; path: string; file_text: string }
  | { command: 'str_replace'; path: string; old_str: string; new_str?: string }
  | { command: 'insert'; path: string; insert_line: number; new_str: string };

const PARAMS: { readonly [K in EditorInput['command']]: ParamSpec } = {
  view: { path: { kind: 'string' }, view_range: { kind: 'range', optional: true } },
  create: { path: { kind: 'string' }, file_text: { kind: 'string' } },
  str_replace: { path: { kind: 'string' }, old_str: { kind: 'string' }, new_str: { kind: 'string', optional: true } },
  insert: { path: { kind: 'string' }, insert_line: { kind: 'integer' }, new_str: { kind: 'string' } },
};

/** The file as the edit found it: from the open document when there is one, else from disk. */
interface Current {
  text: string;
  bom: boolean;
  inDocument: boolean;
}

export class TextEditorTool implements AgentTool {
  readonly name = EDITOR_TOOL.name;
  private readonly store: SafeStore;
  private readonly queue = new SerialQueue();
  private readonly limit: number;

  constructor(private readonly options: TextEditorToolOptions) {
    const folder = options.folder;
    this.store = new SafeStore(options.fs, {
      display: (rel) => displayOfWorkspace(folder, rel),
      symlink: editorMessages.symlink,
      fsFailure: editorMessages.fsFailure,
    });
    this.limit = options.maxCharacters ?? DEFAULT_EDITOR_MAX_CHARACTERS;
  }

  definition(): BetaToolUnion {
    return { ...EDITOR_TOOL, max_characters: this.limit };
  }

  label(input: unknown): AgentToolLabel {
    const record = asRecord(input);
    const command = typeof record.command === 'string' ? record.command : 'unknown';
    return typeof record.path === 'string' ? { command, path: record.path } : { command };
  }

  summarize(input: unknown, result: AgentToolResult): string {
    const first = (typeof result.content === 'string' ? result.content : '').split('\n')[0].trim();
    if (result.is_error) return first || 'the edit failed';
    const { command, path } = this.label(input);
    const where = result.detail?.kind === 'edit' || result.detail?.kind === 'fileRead' ? result.detail.path || '.' : (path ?? '');
    switch (command) {
      case 'view':
        return `viewed ${where}`;
      case 'create':
        return `created ${where}`;
      case 'insert':
        return `inserted into ${where} at line ${String(asRecord(input).insert_line)}`;
      default:
        return `edited ${where}`;
    }
  }

  execute(input: unknown, context: ToolCallContext): Promise<AgentToolResult> {
    if (context.signal?.aborted) return Promise.resolve({ is_error: true, content: editorMessages.cancelled });
    return this.queue.run(async () => {
      let command = 'unknown';
      try {
        const parsed = parseEditorInput(input);
        command = parsed.command;
        const path = parseWorkspacePath(parsed.path, this.options.folder);
        switch (parsed.command) {
          case 'view':
            return await this.view(path, parsed.view_range);
          case 'create':
            return await this.create(path, parsed.file_text, context);
          case 'str_replace': {
            const current = await this.readCurrent(path, 'str_replace');
            const replacement = replaceUnique(current.text, parsed.old_str, parsed.new_str, path.display);
            return await this.write(path, current, replacement, context);
          }
          case 'insert': {
            const current = await this.readCurrent(path, 'insert');
            return await this.write(path, current, insertLines(current.text, parsed.insert_line, parsed.new_str), context);
          }
        }
      } catch (e) {
        if (isMemoryError(e)) return { is_error: true, content: e.modelText };
        try {
          this.options.onInternalError?.(e);
        } catch {
          // A failing logger must not turn into an unhandled rejection.
        }
        return { is_error: true, content: editorMessages.internal(command) };
      }
    });
  }

  private async view(path: WorkspacePath, range: [number, number] | undefined): Promise<AgentToolResult> {
    const inspection = await this.store.inspect(path.rel);
    if (inspection.kind === 'directory') {
      if (range) throw new MemoryError('Error: The `view_range` parameter is not allowed when `path` points to a directory.');
      return {
        is_error: false,
        content: await listFolder(this.store, this.options.folder, path.rel, this.options.excludes?.() ?? [], this.limit),
        detail: { kind: 'fileRead', path: path.rel, directory: true },
      };
    }
    const current = await this.readCurrent(path, 'view', inspection);
    return {
      is_error: false,
      content: numberedView(editorMessages.fileHeader(path.display), path.display, current.text, range, this.limit),
      detail: { kind: 'fileRead', path: path.rel, ...(range ? { range: [range[0], range[1]] as [number, number] } : {}), lines: countLines(current.text) },
    };
  }

  private async create(path: WorkspacePath, text: string, context: ToolCallContext): Promise<AgentToolResult> {
    if (path.rel === '') throw new MemoryError(editorMessages.isDirectory(path.display, 'create'));
    const inspection = await this.store.inspect(path.rel);
    if (inspection.kind === 'directory') throw new MemoryError(editorMessages.isDirectory(path.display, 'create'));
    if (inspection.kind !== 'missing' || this.options.documents?.openText(path.rel) !== undefined) {
      throw new MemoryError(editorMessages.createExists(path.display));
    }
    if (inspection.blockedBy !== undefined) {
      throw new MemoryError(editorMessages.parentIsFile(path.display, displayOfWorkspace(this.options.folder, inspection.blockedBy)));
    }
    const bytes = this.encode(path, text, false);
    await this.refuseGitLayout(path);
    const consent = await this.consent(path, undefined, text, context);
    if (consent !== true) return declined(path, consent.reason);
    const parent = parentOf(path.rel);
    if ((await this.store.inspect(parent)).kind === 'missing') await this.store.ensureDirectory(parent);
    await this.store.writeInPlace(path.rel, bytes);
    return { is_error: false, content: editorMessages.created(path.display), detail: { kind: 'edit', path: path.rel, before: undefined, after: text } };
  }

  private async write(path: WorkspacePath, current: Current, replacement: Replacement, context: ToolCallContext): Promise<AgentToolResult> {
    const bytes = this.encode(path, replacement.after, current.bom);
    const consent = await this.consent(path, current.text, replacement.after, context);
    if (consent !== true) return declined(path, consent.reason);
    if (current.inDocument && this.options.documents) {
      const outcome = await this.options.documents.replace(path.rel, current.text, replacement.after);
      if (outcome === 'changed') {
        throw new MemoryError(`Error: ${path.display} changed in the editor while this edit waited; nothing was changed. View it again and retry.`);
      }
      if (outcome === 'closed') await this.writeExisting(path, bytes);
    } else {
      await this.writeExisting(path, bytes);
    }
    const snippet = editSnippet(replacement.after, replacement, this.limit);
    return {
      is_error: false,
      content: editorMessages.edited(path.display, snippet),
      detail: { kind: 'edit', path: path.rel, before: current.text, after: replacement.after },
    };
  }

  /**
   * Writes an existing file in place (it keeps its mode and identity), except a file with more
   * than one hard link: writing into it would change the other names too, maybe outside the
   * folder, so it is replaced by a new file instead.
   */
  private async writeExisting(path: WorkspacePath, bytes: Uint8Array): Promise<void> {
    const inspection = await this.store.inspect(path.rel);
    if (inspection.kind === 'file' && (inspection.stat.links ?? 1) > 1) await this.store.writeAtomic(path.rel, bytes, true);
    else await this.store.writeInPlace(path.rel, bytes);
  }

  /** A write that would leave some folder with HEAD, objects/ and refs/ is refused. */
  private async refuseGitLayout(path: WorkspacePath): Promise<void> {
    const disk = { head: 'HEAD', objects: 'objects', refs: 'refs' } as const;
    for (const { folder, adds } of gitLayoutCandidates(path.rel)) {
      let others = 0;
      for (const name of GIT_LAYOUT) {
        if (name === adds) continue;
        const found = await this.store.inspect(folder === '' ? disk[name] : `${folder}/${disk[name]}`);
        if (found.kind !== 'missing') others++;
      }
      if (others === GIT_LAYOUT.length - 1) throw new MemoryError(editorMessages.gitLayout(path.display, displayOfWorkspace(this.options.folder, folder)));
    }
  }

  /** The write policy, then (for 'ask', or a protected place) the user; not `true`: declined, with what the user said. */
  private async consent(path: WorkspacePath, before: string | undefined, after: string, context: ToolCallContext): Promise<true | { reason?: string }> {
    const policy = this.options.writePolicy();
    if (policy.mode === 'refuse') throw new MemoryError(policy.reason);
    const risk = protectedReason(path.rel);
    if (risk !== undefined) {
      const guarded = this.options.protectedWrites?.() ?? { mode: 'ask' };
      if (guarded.mode === 'refuse') throw new MemoryError(editorMessages.protectedPath(path.display, risk, guarded.how));
      if (guarded.mode === 'ask') {
        if (!this.options.approver) throw new MemoryError(editorMessages.protectedPath(path.display, risk, ''));
        const answer = answerOf(await this.options.approver.ask({ kind: 'edit', toolUseId: context.toolUseId, path: path.rel, before, after, protected: risk }, context.signal));
        return answer.decision !== 'deny' && !context.signal?.aborted ? true : { reason: answer.reason };
      }
    }
    if (policy.mode === 'apply') return true;
    if (!this.options.approver) throw new MemoryError(editorMessages.declined(path.display));
    const answer = answerOf(await this.options.approver.ask({ kind: 'edit', toolUseId: context.toolUseId, path: path.rel, before, after }, context.signal));
    return answer.decision !== 'deny' && !context.signal?.aborted ? true : { reason: answer.reason };
  }

  private encode(path: WorkspacePath, text: string, bom: boolean): Uint8Array {
    const bytes = encodeText(text, bom);
    if (bytes.length > EDITOR_MAX_WRITE_BYTES) {
      throw new MemoryError(editorMessages.tooLargeToWrite(path.display, ...formatSizePair(bytes.length, EDITOR_MAX_WRITE_BYTES)));
    }
    return bytes;
  }

  private async readCurrent(path: WorkspacePath, command: string, known?: Inspection): Promise<Current> {
    const inspection = known ?? (await this.store.inspect(path.rel));
    if (inspection.kind === 'directory') throw new MemoryError(editorMessages.isDirectory(path.display, command));
    if (inspection.kind === 'other') throw new MemoryError(editorMessages.notAFile(path.display));
    const open = this.options.documents?.openText(path.rel);
    if (open !== undefined) return { text: open, bom: false, inDocument: true };
    if (inspection.kind === 'missing') throw new MemoryError(editorMessages.missing(path.display));
    if (inspection.stat.size > EDITOR_MAX_READ_BYTES) {
      throw new MemoryError(editorMessages.tooLargeToRead(path.display, formatSize(inspection.stat.size), formatSize(EDITOR_MAX_READ_BYTES)));
    }
    const decoded = decodeText(await this.store.readFile(path.rel));
    if (decoded === undefined) throw new MemoryError(editorMessages.notText(path.display));
    return { ...decoded, inDocument: false };
  }
}

function declined(path: WorkspacePath, reason: string | undefined): AgentToolResult {
  return { is_error: true, content: editorMessages.declined(path.display, reason?.trim()) };
}

function parseEditorInput(input: unknown): EditorInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new MemoryError(editorMessages.inputNotObject);
  const record = input as Record<string, unknown>;
  const command = record.command;
  if (typeof command !== 'string' || !(EDITOR_COMMANDS as readonly string[]).includes(command)) {
    throw new MemoryError(editorMessages.unknownCommand(command === undefined ? 'missing' : describeValue(command)));
  }
  const name = command as EditorInput['command'];
  return readParams(record, name, PARAMS[name]) as EditorInput;
}

function asRecord(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}
