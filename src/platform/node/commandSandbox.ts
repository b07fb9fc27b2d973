/**
 * The OS sandbox around every bash command: Anthropic's sandbox runtime
 * (@anthropic-ai/sandbox-runtime: bubblewrap, a PID namespace and a network proxy on Linux,
 * Seatbelt on macOS). We only say what a command may do; the runtime enforces it on the whole
 * process tree.
 *
 * - `read-only` (a command allowed only because the rules judge it read-only): nothing writable.
 * - `workspace` (a command the user allowed): the workspace folder and the shell's private
 *   TMPDIR are writable, except places where code runs on open, commit or shell start
 *   (.git/hooks, .git/config, .vscode, .idea, .husky, .envrc, shell start-up files, …; the
 *   runtime adds its own mandatory list) and the memory folder (memory changes go through the
 *   memory tool, with history, guards and redaction).
 * - Reads: everywhere but credential places (~/.ssh, ~/.aws, …) and the memory folder's .meta.
 * - Network: none, except the allowed domains; another host asks through the running command's
 *   `askNetwork` (the chat's card), else is refused.
 *
 * The runtime's manager is one per process (its proxies are shared), so this module keeps one
 * initialisation and routes the proxy's questions to the command that is running.
 */
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import type { CommandAccess, NetworkDecision } from '../../core/workspace/bashTool';

export interface SandboxPolicy {
  /** The workspace folder (absolute). */
  workspace: string;
  /** The memory folder (absolute): never writable by a command; its .meta never readable. */
  memoryFolder?: string;
  /** Domains the user allowed (user settings, `run --allow-domain`); read on every command. */
  allowedDomains(): readonly string[];
}

/** Where credentials live: never readable from inside the sandbox. */
export function credentialPaths(home = os.homedir()): string[] {
  return [
    '.ssh', '.aws', '.gnupg', '.netrc', '.npmrc', '.pypirc', '.git-credentials', '.docker/config.json',
    '.config/gcloud', '.azure', '.kube', '.config/gh', '.config/hub', '.oci', '.terraform.d/credentials.tfrc.json',
    '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials', '.config/doctl', '.boto', '.s3cfg',
    '.local/share/keyrings', '.password-store', '.vault-token',
  ].map((p) => path.join(home, p));
}

/** Workspace-relative places where code runs on open, commit or shell start: never writable. */
export const PROTECTED_WORKSPACE_PATHS: readonly string[] = [
  '.git/hooks', '.git/config', '.gitmodules', '.gitconfig', '.vscode', '.idea', '.husky', '.envrc', '.devcontainer',
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin',
  '.mcp.json',
];

/** Why no sandbox can run here, or undefined when one can. Sentence for the user (stderr, the chat's card). */
export function sandboxUnavailableReason(): string | undefined {
  if (!SandboxManager.isSupportedPlatform()) return `the OS sandbox does not support this platform (${process.platform})`;
  // Looked up with `which` under a 1 s limit: on a busy machine ask twice before running unsandboxed.
  let check = SandboxManager.checkDependencies();
  if (check.errors.length > 0) check = SandboxManager.checkDependencies();
  if (check.errors.length > 0) return `the OS sandbox needs ${check.errors.join(', ')}`;
  if (process.platform === 'linux' && !userNamespacesWork()) return 'bubblewrap cannot create a namespace here (unprivileged user namespaces are off)';
  return undefined;
}

let namespacesChecked: boolean | undefined;
function userNamespacesWork(): boolean {
  if (namespacesChecked === undefined) {
    const result = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', '--unshare-user', '--unshare-net', '--dev', '/dev', '--proc', '/proc', '/bin/true'], {
      stdio: 'ignore',
      timeout: 5000,
    });
    namespacesChecked = result.status === 0;
  }
  return namespacesChecked;
}

/** How to get the sandbox, per platform (docs/chat.md#command-sandbox has the same). */
export const SANDBOX_INSTALL_HINT =
  'install bubblewrap and socat (Debian/Ubuntu: `apt install bubblewrap socat ripgrep`; Fedora: `dnf install bubblewrap socat ripgrep`; Arch: `pacman -S bubblewrap socat ripgrep`); macOS needs nothing';

interface Asking {
  askNetwork?(host: string, port: number | undefined): Promise<NetworkDecision>;
  allowedOnce: Set<string>;
}

const running: Asking[] = [];
let initialised: Promise<void> | undefined;
let currentDomains: string[] = [];

function baseConfig(domains: readonly string[]): SandboxRuntimeConfig {
  return {
    network: { allowedDomains: [...domains], deniedDomains: [] },
    filesystem: { denyRead: credentialPaths(), allowWrite: [], denyWrite: [] },
  };
}

async function ensureInitialised(domains: readonly string[]): Promise<void> {
  initialised ??= SandboxManager.initialize(baseConfig(domains), async ({ host, port }) => ask(host, port)).then(() => {
    currentDomains = [...domains];
  });
  try {
    await initialised;
  } catch (e) {
    initialised = undefined;
    throw e;
  }
  if (domains.join('\n') !== currentDomains.join('\n')) {
    currentDomains = [...domains];
    SandboxManager.updateConfig(baseConfig(domains));
  }
}

/** The proxy asks about a host no rule allows: the most recent running command's card answers. */
async function ask(host: string, port: number | undefined): Promise<boolean> {
  const command = running[running.length - 1];
  if (!command?.askNetwork) return false;
  if (command.allowedOnce.has(host)) return true;
  const decision = await command.askNetwork(host, port);
  if (decision === 'deny') return false;
  command.allowedOnce.add(host);
  return true;
}

/** One wrapped command: `command` is the shell line to spawn with /bin/sh; end() releases it. */
export interface SandboxedCommand {
  command: string;
  end(): void;
}

export interface WrapOptions {
  access: CommandAccess;
  /** Private temporary folder of the shell (writable with `workspace` access). */
  tmpDir: string;
  /** Read-only paths (the shell's own protocol files). */
  readOnly: readonly string[];
  askNetwork?(host: string, port: number | undefined): Promise<NetworkDecision>;
}

/** Wraps a bash script so that it runs in the sandbox with `options.access`. */
export async function wrapInSandbox(script: string, policy: SandboxPolicy, options: WrapOptions): Promise<SandboxedCommand> {
  await ensureInitialised(policy.allowedDomains());
  const denyRead = [...credentialPaths()];
  // Nothing outside allowWrite is writable (the home folder's start-up files included).
  const denyWrite: string[] = [...options.readOnly];
  if (policy.memoryFolder) {
    denyRead.push(path.join(policy.memoryFolder, '.meta'));
    denyWrite.push(policy.memoryFolder);
  }
  const allowWrite = options.access === 'workspace' ? [policy.workspace, options.tmpDir] : [];
  if (options.access === 'workspace') denyWrite.push(...PROTECTED_WORKSPACE_PATHS.map((p) => path.join(policy.workspace, p)));
  const asking: Asking = { askNetwork: options.askNetwork, allowedOnce: new Set() };
  const command = await SandboxManager.wrapWithSandbox(script, '/bin/bash', {
    network: { allowedDomains: [...policy.allowedDomains()], deniedDomains: [] },
    filesystem: { denyRead, allowWrite, denyWrite },
  });
  running.push(asking);
  let ended = false;
  return {
    command,
    end: () => {
      if (ended) return;
      ended = true;
      const at = running.indexOf(asking);
      if (at >= 0) running.splice(at, 1);
      SandboxManager.cleanupAfterCommand();
    },
  };
}

/** Stops the runtime's proxies (the CLI at the end of a run, so the process can exit). */
export async function resetSandbox(): Promise<void> {
  const was = initialised;
  initialised = undefined;
  currentDomains = [];
  if (!was) return;
  try {
    await was;
  } catch {
    return;
  }
  await SandboxManager.reset();
}
