/**
 * The workspace tools of `claude-memory run`: nobody can click Allow in a headless run, so what
 * runs is what the flags say. Reads are always allowed; `--allow-edits` permits editor writes;
 * `--allow-command PREFIX` (repeatable, `*` for all) permits matching commands with the compound
 * rule of commandRules.ts. Without a flag, a write or command answers with the flag that allows it.
 */
import * as path from 'node:path';
import { buildSystemPrompt, isoDate, osName } from '../core/agent/systemPrompt';
import type { AgentTool } from '../core/agent/tools';
import { BashTool } from '../core/workspace/bashTool';
import { TextEditorTool } from '../core/workspace/editor';
import { NodeMemoryFileSystem } from '../platform/node/nodeFileSystem';
import { resetSandbox, SANDBOX_INSTALL_HINT, sandboxUnavailableReason, type SandboxPolicy } from '../platform/node/commandSandbox';
import { PersistentShell } from '../platform/node/persistentShell';
import { readOnlyCheck } from '../platform/node/readOnlyCheck';
import { CLI_NAME } from './args';

export interface RunToolFlags {
  allowEdits: boolean;
  /** --allow-edits-protected: also where code runs on open, commit or shell start. */
  allowEditsProtected?: boolean;
  allowCommands: readonly string[];
  commandTimeoutSeconds: number;
  /** `--allow-domain HOST` (repeatable): hosts commands may reach through the sandbox's proxy. */
  allowDomains: readonly string[];
  /** `--no-sandbox`. */
  noSandbox: boolean;
  /** The environment commands start from (secrets are removed from it). Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Called once, when the first command's shell starts without the sandbox, with the sentence for stderr. */
  onUnsandboxed?(message: string): void;
  /** A sentence for stderr about what the sandbox did (what it moved out of the folder). */
  onNotice?(message: string): void;
}

export interface RunTools {
  tools: AgentTool[];
  systemPrompt: string;
  dispose(): Promise<void>;
}

const SHELL = '/bin/bash';

export function createRunTools(workspace: string, memoryFolder: string, flags: RunToolFlags, onInternalError: (e: unknown) => void): RunTools {
  const root = workspace.split(path.sep).join('/');
  const folder = { name: path.basename(workspace), root, memoryFolder };
  const editor = new TextEditorTool({
    fs: new NodeMemoryFileSystem(workspace, { ownerOnly: false }),
    folder,
    writePolicy: () =>
      flags.allowEdits
        ? { mode: 'apply' }
        : { mode: 'refuse', reason: `Error: file edits are not allowed in this run; nothing was changed. The user can run ${CLI_NAME} run again with --allow-edits to allow them.` },
    protectedWrites: () =>
      flags.allowEditsProtected ? { mode: 'apply' } : { mode: 'refuse', how: `The user can run ${CLI_NAME} run again with --allow-edits-protected to allow it.` },
    onInternalError,
  });
  const canRunShell = process.platform !== 'win32';
  // Decided when the first command starts: a run without commands checks nothing and says nothing.
  let sandbox: SandboxPolicy | undefined;
  const startShell = () => {
    const why = flags.noSandbox ? 'the sandbox is off (--no-sandbox)' : sandboxUnavailableReason();
    sandbox = why === undefined ? { workspace, memoryFolder: path.join(workspace, memoryFolder), allowedDomains: () => flags.allowDomains } : undefined;
    if (why !== undefined) {
      flags.onUnsandboxed?.(`commands run unsandboxed: ${why}; they can write anywhere you can and reach the network. To sandbox them, ${SANDBOX_INSTALL_HINT}.`);
    }
    return new PersistentShell({
      cwd: workspace,
      shellPath: SHELL,
      sandbox,
      env: flags.env,
      onUndone: (undone) => {
        for (const u of undone) flags.onNotice?.(`the sandbox moved ${u.shown}, which a command made in a protected place, ${u.movedTo ? `to ${u.movedTo}` : 'away (it could only be deleted)'}`);
      },
    });
  };
  const bash = new BashTool({
    shell: canRunShell ? startShell : undefined,
    sandboxed: () => sandbox !== undefined,
    readOnlyCheck: (parts, cwd) => readOnlyCheck(parts, cwd, { workspace }),
    unavailable: 'Error: the bash tool is not available on Windows in this CLI.',
    policy: () => ({ mode: 'rules' }),
    rules: () => ({ allow: flags.allowCommands, deny: [] }),
    notAllowed: (prefixes) =>
      `Error: the command was not run: it is not allowed in this run. The user can run ${CLI_NAME} run again with ` +
      `${(prefixes.length > 0 ? prefixes : ['PREFIX']).map((p) => `--allow-command ${JSON.stringify(p)}`).join(' ')} (or --allow-command '*' to allow every command).`,
    timeoutMs: () => flags.commandTimeoutSeconds * 1000,
  });
  const systemPrompt = buildSystemPrompt({
    os: osName(process.platform),
    shell: canRunShell ? SHELL : undefined,
    folderName: folder.name,
    folderPath: root,
    date: isoDate(new Date()),
    editor: true,
  });
  return {
    tools: [editor, bash],
    systemPrompt,
    dispose: async () => {
      bash.dispose();
      await resetSandbox();
    },
  };
}
