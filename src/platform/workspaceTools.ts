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
import { answerOf, type AgentTool, type ToolApprover, type Unsandboxed } from '../core/agent/tools';
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
import { readOnlyCheck } from './node/readOnlyCheck';
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
  /** Whether this chat's "Allow sandboxed commands" grant is on (Manage Command Rules lists it). */
  sandboxedCommandsAllowed(): boolean;
  /** Takes this chat's grant back: later commands ask again. */
  revokeSandboxedCommands(): void;
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
  let unsandboxed: Unsandboxed | undefined;
  let decided = false;
  const decideSandbox = (): void => {
    if (decided) return;
    decided = true;
    unsandboxed = sandboxSettings().mode === 'off' ? { mode: 'off' } : unavailable(sandboxUnavailableReason());
    sandbox =
      unsandboxed === undefined
        ? { workspace: folder.uri.fsPath, memoryFolder: path.join(folder.uri.fsPath, settings().memoryFolder), allowedDomains: () => sandboxSettings().allowedDomains }
        : undefined;
    if (unsandboxed) log.warn(`[bash] commands run unsandboxed: ${unsandboxed.mode === 'off' ? 'the sandbox is off (claudeMemory.sandbox)' : unsandboxed.why}`);
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
    readOnlyCheck: (parts, cwd) => readOnlyCheck(parts, cwd, { workspace: folder.uri.fsPath }),
    unsandboxed: () => {
      decideSandbox();
      return unsandboxed;
    },
    get unsandboxedNotice() {
      if (unsandboxed === undefined) return undefined;
      // The advice fits the cause: a user who turned the sandbox off is not told to install it.
      return unsandboxed.mode === 'off'
        ? 'Commands run unsandboxed: the sandbox is off (claudeMemory.sandbox). They can write anywhere you can and reach the network; turn the setting on to sandbox them.'
        : `Commands run unsandboxed: ${unsandboxed.why}. They can write anywhere you can and reach the network${unsandboxed.help ? `; to sandbox them, ${unsandboxed.help}` : ''}.`;
    },
    askNetwork: async (request, signal) => {
      const { decision } = answerOf(await approver.ask({ kind: 'network', ...request }, signal));
      if (decision === 'always') {
        await allowDomainForCommands(request.host);
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
      void setAlwaysAllowed(memento, [...alwaysAllowed(memento), ...prefixes]);
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
    sandboxedCommandsAllowed: () => autoAllowThisChat,
    revokeSandboxedCommands: () => {
      autoAllowThisChat = false;
    },
  };
}

/** Why no sandbox runs here (sandboxUnavailableReason's sentence), with how to get one where that can be installed. */
function unavailable(why: string | undefined): Unsandboxed | undefined {
  if (why === undefined) return undefined;
  // Only where bubblewrap is what is missing: another platform has nothing to install.
  const installable = process.platform === 'linux' && !/namespace/.test(why);
  return { mode: 'unavailable', why, ...(installable ? { help: SANDBOX_INSTALL_HINT } : {}) };
}

/**
 * Adds `host` to the domains sandboxed commands may reach, in the user's own settings (the only
 * list read): a workspace value could not widen it. Nothing happens when it is there already.
 */
export async function allowDomainForCommands(host: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const raw = config.inspect<unknown>('sandbox.allowedDomains')?.globalValue;
  const known = Array.isArray(raw) ? raw : [];
  if (!known.includes(host)) await config.update('sandbox.allowedDomains', [...known, host], vscode.ConfigurationTarget.Global);
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
  const user = userCommandRules();
  return { allow: [...user.allow, ...alwaysAllowed(memento)], deny: user.deny };
}

/** The allow and deny rules of the user's own settings (`commands.allow`, `commands.deny`). */
export function userCommandRules(): { allow: string[]; deny: string[] } {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return { allow: strings(config.inspect<unknown>('commands.allow')?.globalValue), deny: strings(config.inspect<unknown>('commands.deny')?.globalValue) };
}

/** Replaces the user settings' `commands.allow` or `commands.deny` (Manage Command Rules). */
export async function setUserCommandRules(list: 'allow' | 'deny', rules: readonly string[]): Promise<void> {
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update(`commands.${list}`, [...rules], vscode.ConfigurationTarget.Global);
}

/** What "Always allow" remembered for this workspace. */
export function alwaysAllowed(memento: vscode.Memento): string[] {
  return strings(memento.get<unknown>(STATE_KEYS.alwaysAllowedCommands));
}

/** Replaces what "Always allow" remembered for this workspace (Manage Command Rules). */
export async function setAlwaysAllowed(memento: vscode.Memento, rules: readonly string[]): Promise<void> {
  await memento.update(STATE_KEYS.alwaysAllowedCommands, [...new Set(rules)]);
}

/** Replaces the user settings' `sandbox.allowedDomains` (Manage Command Rules). */
export async function setAllowedDomains(domains: readonly string[]): Promise<void> {
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('sandbox.allowedDomains', [...domains], vscode.ConfigurationTarget.Global);
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
