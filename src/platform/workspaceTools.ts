/**
 * The platform factory of the workspace tools for one chat in one workspace folder: Anthropic's
 * text editor over vscode.workspace.fs (open documents through WorkspaceEdits) and bash in a
 * persistent shell on the extension host. The chat calls it once per session and disposes the
 * result when the session ends (the shell process goes with it).
 *
 * Security decisions live here, where VS Code's facts are:
 * - Restricted Mode: neither tool writes or runs anything (asked on every call: trust can change).
 * - Command rules come from the user's global settings only (`inspect().globalValue`; the
 *   settings are also application-scoped in package.json) and from this workspace's memento,
 *   which only an "Always allow" click writes: nothing a cloned repository controls.
 */
import * as vscode from 'vscode';
import { answerOf, type AgentTool, type ToolApprover } from '../core/agent/tools';
import { buildSystemPrompt, isoDate, osName } from '../core/agent/systemPrompt';
import { BashTool, type ShellSession } from '../core/workspace/bashTool';
import type { CommandRules } from '../core/workspace/commandRules';
import type { EditorDocuments } from '../core/workspace/documents';
import { TextEditorTool } from '../core/workspace/editor';
import type { WorkspaceFolderInfo } from '../core/workspace/paths';
import { VsCodeEditorDocuments } from './editorDocuments';
import { STATE_KEYS } from './ids';
import type { Logger } from './logger';
import * as path from 'node:path';
import { SANDBOX_INSTALL_HINT, sandboxUnavailableReason, type SandboxPolicy } from './node/commandSandbox';
import { PersistentShell } from './node/persistentShell';
import { sandboxSettings, SETTINGS_SECTION, type SettingsSnapshot } from './settings';
import { WorkspaceMemoryFileSystem } from './workspaceFileSystem';

const SHELL = '/bin/bash';

export interface WorkspaceToolsOptions {
  folder: vscode.WorkspaceFolder;
  approver: ToolApprover;
  /** The current settings (read on every call). */
  settings: () => Readonly<SettingsSnapshot>;
  /** The workspace's memento (ExtensionContext.workspaceState). */
  memento: vscode.Memento;
  log: Logger;
  /** Default: VS Code's open text documents. */
  documents?: EditorDocuments;
  /** Default: vscode.workspace.isTrusted. */
  isTrusted?: () => boolean;
}

/** dispose() ends the shell; the tools stay usable and start a fresh shell on their next command. */
export interface WorkspaceTools extends vscode.Disposable {
  /** Text editor then bash: pass as AgentOptions.tools. */
  readonly tools: readonly AgentTool[];
  /** The system prompt that describes this folder and these tools. */
  readonly systemPrompt: string;
  /** "Allow sandboxed commands in this chat": later commands run without asking while sandboxed. */
  allowSandboxedCommands(): void;
}

export function createWorkspaceTools(options: WorkspaceToolsOptions): WorkspaceTools {
  const { folder, approver, settings, memento, log } = options;
  const trusted = options.isTrusted ?? (() => vscode.workspace.isTrusted);
  const info = folderInfo(folder, settings().memoryFolder);
  const restricted = (what: string) =>
    `Error: this workspace is in Restricted Mode (not trusted), so Claude may not ${what} here; nothing was changed. The user can trust the workspace to allow it.`;

  const editor = new TextEditorTool({
    fs: new WorkspaceMemoryFileSystem(folder.uri, { canWrite: trusted, ownerOnly: false }),
    folder: info,
    maxCharacters: settings().editorMaxCharacters,
    writePolicy: () => (!trusted() ? { mode: 'refuse', reason: restricted('edit files') } : settings().edits === 'ask' ? { mode: 'ask' } : { mode: 'apply' }),
    approver,
    documents: options.documents ?? new VsCodeEditorDocuments(folder.uri),
    excludes: () => filesExclude(folder),
    onInternalError: (e) => log.error(`[editor] ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`),
  });

  const canRunShell = folder.uri.scheme === 'file' && process.platform !== 'win32';
  // Decided once per chat, when its first command needs to know (the card's offer, auto-allow) or
  // its shell starts, whichever comes first; a new chat decides again (the setting, the OS).
  let sandbox: SandboxPolicy | undefined;
  let unsandboxedWhy: string | undefined;
  let decided = false;
  const decideSandbox = (): void => {
    if (decided) return;
    decided = true;
    unsandboxedWhy = sandboxSettings().mode === 'off' ? 'the sandbox is off (claudeMemory.sandbox)' : sandboxUnavailableReason();
    sandbox =
      unsandboxedWhy === undefined
        ? { workspace: folder.uri.fsPath, memoryFolder: path.join(folder.uri.fsPath, settings().memoryFolder), allowedDomains: () => sandboxSettings().allowedDomains }
        : undefined;
    if (unsandboxedWhy) log.warn(`[bash] commands run unsandboxed: ${unsandboxedWhy}`);
  };
  const startShell = (): ShellSession => {
    decideSandbox();
    return new PersistentShell({
      cwd: folder.uri.fsPath,
      shellPath: SHELL,
      sandbox,
      onUndone: (undone) => {
        for (const u of undone) log.warn(`[bash] the sandbox moved ${u.shown}, which the command made in a protected place, ${u.movedTo ? `to ${u.movedTo}` : 'away (it could only be deleted)'}`);
      },
    });
  };
  let autoAllowThisChat = false;
  const bash = new BashTool({
    shell: canRunShell ? startShell : undefined,
    sandboxed: () => {
      decideSandbox();
      return sandbox !== undefined;
    },
    autoAllow: () => autoAllowThisChat || sandboxSettings().autoAllow,
    get unsandboxedNotice() {
      return unsandboxedWhy === undefined
        ? undefined
        : `Commands run unsandboxed: ${unsandboxedWhy}. They can write anywhere you can and reach the network; to sandbox them, ${SANDBOX_INSTALL_HINT}.`;
    },
    askNetwork: async (request, signal) => {
      const { decision } = answerOf(await approver.ask({ kind: 'network', ...request }, signal));
      if (decision === 'always') {
        // Added to the user's own list (the only one read): a workspace value could not widen it.
        const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
        const raw = config.inspect<unknown>('sandbox.allowedDomains')?.globalValue;
        const known = Array.isArray(raw) ? raw : [];
        if (!known.includes(request.host)) await config.update('sandbox.allowedDomains', [...known, request.host], vscode.ConfigurationTarget.Global);
        log.info(`[bash] always allowed the host ${request.host}`);
      }
      return decision;
    },
    unavailable:
      process.platform === 'win32'
        ? 'Error: the bash tool is not available: this workspace is on Windows, where the extension does not start bash. Use the text editor tool.'
        : `Error: the bash tool is not available: this folder is not on a disk the extension host can run a shell in (a ${folder.uri.scheme}: folder). Use the text editor tool.`,
    policy: () => (trusted() ? { mode: 'rules' } : { mode: 'refuse', reason: restricted('run commands') }),
    rules: () => commandRules(memento),
    approver,
    remember: (prefixes) => {
      const known = alwaysAllowed(memento);
      void memento.update(STATE_KEYS.alwaysAllowedCommands, [...new Set([...known, ...prefixes])]);
      log.info(`[bash] always allowed in this workspace: ${prefixes.join(', ')}`);
    },
    timeoutMs: () => settings().commandTimeoutSeconds * 1000,
  });

  const systemPrompt = buildSystemPrompt({
    os: osName(process.platform),
    shell: canRunShell ? SHELL : undefined,
    folderName: folder.name,
    folderPath: info.root,
    date: isoDate(new Date()),
    editor: true,
  });
  return {
    tools: [editor, bash],
    systemPrompt,
    dispose: () => bash.dispose(),
    allowSandboxedCommands: () => {
      autoAllowThisChat = true;
    },
  };
}

/** The folder as the model sees it: its name and absolute `/`-separated path. */
export function folderInfo(folder: vscode.WorkspaceFolder, memoryFolder: string): WorkspaceFolderInfo {
  const root = folder.uri.scheme === 'file' ? folder.uri.fsPath.split('\\').join('/') : folder.uri.path;
  return { name: folder.name, root: root.length > 1 ? root.replace(/\/+$/, '') : root, memoryFolder };
}

/**
 * Allow and deny rules: the user's own (global) settings, never a workspace's, plus what "Always
 * allow" remembered for this workspace.
 */
export function commandRules(memento: vscode.Memento): CommandRules {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return {
    allow: [...strings(config.inspect<unknown>('commands.allow')?.globalValue), ...alwaysAllowed(memento)],
    deny: strings(config.inspect<unknown>('commands.deny')?.globalValue),
  };
}

function alwaysAllowed(memento: vscode.Memento): string[] {
  return strings(memento.get<unknown>(STATE_KEYS.alwaysAllowedCommands));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

/** `files.exclude` patterns that are on (conditional `when` entries count as on: hiding is safe). */
function filesExclude(folder: vscode.WorkspaceFolder): string[] {
  const exclude = vscode.workspace.getConfiguration('files', folder.uri).get<Record<string, unknown>>('exclude') ?? {};
  return Object.entries(exclude)
    .filter(([, on]) => on === true || (typeof on === 'object' && on !== null))
    .map(([pattern]) => pattern);
}
