/**
 * The OS sandbox around every bash command: Anthropic's sandbox runtime
 * (@anthropic-ai/sandbox-runtime: bubblewrap, a PID namespace, a seccomp filter and a network
 * proxy on Linux, Seatbelt on macOS) for the network, the processes and the environment, and
 * our own boundary for the files (sandboxPlan.ts, from the one table of protected places):
 *
 * - `read-only` (a command allowed only because the rules judge it read-only): nothing writable.
 * - `workspace` (a command the user allowed): the workspace folder and the shell's private
 *   TMPDIR are writable, except every place where code runs by itself (git's configuration and
 *   hooks wherever git would look, editor, hook-manager, package-manager and CI settings at the
 *   folder's root, the home folder's start-up files when the workspace holds it) and the memory
 *   folder (memory changes go through the memory tool, with history, guards and redaction).
 *   After the command, what it made in such a place that had no mount is moved out (sandboxCheck.ts).
 * - Reads: everywhere but credential places (~/.ssh, ~/.aws, ~/.npmrc, shell histories, …), the
 *   memory folder's .meta, other projects' checkpoints and other shells' private folders.
 * - Network: none, except the allowed domains; another host asks through the running command's
 *   `askNetwork` (the chat's card), else is refused.
 *
 * On Linux the runtime is given no filesystem policy: its own would put a placeholder entry in
 * the folder for every protected place that does not exist (the phantom `.bashrc`, `.vscode`, …
 * that broke `git add -A`), and it computes the places from this process's working directory,
 * which is not the workspace. Its bubblewrap command line is taken apart (the runtime quotes
 * every word one known way, and the round trip is checked), its `--bind / /` replaced by our
 * mounts, and bubblewrap is started directly by us: a child of this process with
 * `--die-with-parent`, so that the whole sandbox dies with the CLI or the extension host.
 *
 * The runtime's manager is one per process (its proxies are shared), so this module keeps one
 * initialisation and routes the proxy's questions to the command that is running.
 */
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import type { CommandAccess, NetworkDecision } from '../../core/workspace/bashTool';
import { CREDENTIAL_PLACES } from '../../core/workspace/protectedPaths';
import { checkpointRepositoryDir, checkpointsHome } from './checkpointRepository';
import { checkAfterCommand, Quarantine, type Undone } from './sandboxCheck';
import { bwrapArgs, planBoundary, type Boundary } from './sandboxPlan';

export interface SandboxPolicy {
  /** The workspace folder (absolute). */
  workspace: string;
  /** The memory folder (absolute): never writable by a command; its .meta never readable. */
  memoryFolder?: string;
  /** Domains the user allowed (user settings, `run --allow-domain`); read on every command. */
  allowedDomains(): readonly string[];
}

/** Where credentials live (CREDENTIAL_PLACES of the one table): never readable from inside the sandbox. */
export function credentialPaths(home = os.homedir()): string[] {
  return CREDENTIAL_PLACES.map((p) => path.join(home, p.path));
}

/** This tool's state folder (checkpoint repositories, quarantine): never readable from inside the sandbox. */
export function stateRoot(): string {
  return path.dirname(checkpointsHome());
}

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
/** On Linux the runtime enforces no file policy: sandboxPlan.ts's mounts do. */
const OWN_FILESYSTEM = process.platform === 'linux';

function baseConfig(domains: readonly string[]): SandboxRuntimeConfig {
  return {
    network: { allowedDomains: [...domains], deniedDomains: [] },
    filesystem: OWN_FILESYSTEM ? { disabled: true, denyRead: [], allowWrite: [], denyWrite: [] } : { denyRead: credentialPaths(), allowWrite: [], denyWrite: [] },
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

/** One wrapped command: spawn `file` with `args` (no shell between); end() releases it. */
export interface SandboxedCommand {
  file: string;
  args: string[];
  /**
   * After the command has ended: moves out what it made in protected places (sandboxCheck.ts).
   * Nothing with `read-only` access.
   */
  check(): Undone[];
  end(): void;
}

export interface WrapOptions {
  access: CommandAccess;
  /** The shell's own private folder, holding its TMPDIR and command file. */
  shellDir: string;
  /** Private temporary folder of the shell (writable with `workspace` access). */
  tmpDir: string;
  /** The folder of every shell's private folder: hidden from the command but for its own. */
  shellsRoot: string;
  /** Read-only paths (the shell's own protocol files). */
  readOnly: readonly string[];
  askNetwork?(host: string, port: number | undefined): Promise<NetworkDecision>;
}

/** Wraps a bash script so that it runs in the sandbox with `options.access`. */
export async function wrapInSandbox(script: string, policy: SandboxPolicy, options: WrapOptions): Promise<SandboxedCommand> {
  await ensureInitialised(policy.allowedDomains());
  const boundary = planBoundary({
    workspace: policy.workspace,
    memoryFolder: policy.memoryFolder,
    access: options.access,
    shellDir: options.shellDir,
    tmpDir: options.tmpDir,
    shellsRoot: options.shellsRoot,
    stateRoot: stateRoot(),
    readOnly: options.readOnly,
  });
  const asking: Asking = { askNetwork: options.askNetwork, allowedOnce: new Set() };
  const network = { allowedDomains: [...policy.allowedDomains()], deniedDomains: [] };
  const wrapped = await SandboxManager.wrapWithSandbox(script, '/bin/bash', {
    network,
    filesystem: OWN_FILESYSTEM ? { disabled: true, denyRead: [], allowWrite: [], denyWrite: [] } : runtimeFilesystem(boundary),
  });
  let file = '/bin/sh';
  let args = ['-c', wrapped];
  if (OWN_FILESYSTEM) {
    try {
      const argv = withOwnMounts(wrapped, bwrapArgs(boundary));
      file = argv[0];
      args = argv.slice(1);
    } catch (e) {
      SandboxManager.cleanupAfterCommand();
      throw e;
    }
  }
  running.push(asking);
  let ended = false;
  return {
    file,
    args,
    check: () => {
      const snapshot = boundary.snapshot;
      if (snapshot === undefined) return [];
      const quarantine = new Quarantine(path.join(quarantineDir(policy.workspace), new Date().toISOString().replace(/[:.]/g, '-')));
      return checkAfterCommand(snapshot, quarantine);
    },
    end: () => {
      if (ended) return;
      ended = true;
      const at = running.indexOf(asking);
      if (at >= 0) running.splice(at, 1);
      SandboxManager.cleanupAfterCommand();
    },
  };
}

/** Where the check after a command moves what it made in protected places, per workspace folder. */
function quarantineDir(workspace: string): string {
  const home = path.join(stateRoot(), 'quarantine');
  try {
    return checkpointRepositoryDir(workspace, home);
  } catch {
    // The folder is gone (the command removed it): its name still tells the quarantines apart.
    return path.join(home, `${path.basename(workspace).replace(/[^A-Za-z0-9._-]/g, '_') || 'folder'}-gone`);
  }
}

/** The boundary as the runtime's filesystem policy (macOS: Seatbelt refuses paths that do not exist too). */
function runtimeFilesystem(boundary: Boundary): SandboxRuntimeConfig['filesystem'] {
  return {
    denyRead: [...boundary.hideDirs, ...boundary.hideFiles, boundary.shellsRoot],
    allowRead: [boundary.shellDir],
    allowWrite: boundary.writeRoots,
    denyWrite: [...boundary.denyWrite, ...boundary.readOnly],
  };
}

/**
 * bubblewrap's argument vector from the runtime's command line with `mounts` in place of its
 * `--bind / /` (what it gives when it enforces no file policy). Throws when the line is not in the
 * form this was written for: then nothing runs, rather than something unconfined.
 */
export function withOwnMounts(line: string, mounts: readonly string[]): string[] {
  const words = runtimeWords(line);
  if (path.basename(words[0] ?? '') !== 'bwrap' || !words.includes('--die-with-parent')) throw new Error('the sandbox runtime did not give a bubblewrap command');
  const end = words.indexOf('--');
  const at: number[] = [];
  for (let i = 1; i + 2 < (end < 0 ? words.length : end); i++) {
    if (words[i] === '--bind' && words[i + 1] === '/' && words[i + 2] === '/') at.push(i);
  }
  if (end < 0 || at.length !== 1) throw new Error('the sandbox runtime\'s bubblewrap command is not in the expected form');
  return [...words.slice(0, at[0]), ...mounts, ...words.slice(at[0] + 3)];
}

/**
 * The words of a command line quoted the runtime's way: words separated by one space, each bare
 * (letters, digits and `_./:=@+,-`, not starting with `=`) or single-quoted, a single quote
 * inside as `'"'"'`. Checked by quoting the words again: the line must come back byte for byte.
 */
export function runtimeWords(line: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < line.length) {
    let word = '';
    const start = i;
    while (i < line.length && line[i] !== ' ') {
      if (line[i] === "'") {
        const close = line.indexOf("'", i + 1);
        if (close < 0) throw new Error('unbalanced quote in the sandbox command');
        word += line.slice(i + 1, close);
        i = close + 1;
      } else if (line.startsWith(`"'"`, i)) {
        word += "'";
        i += 3;
      } else if (BARE_CHAR.test(line[i])) {
        word += line[i];
        i++;
      } else {
        throw new Error('unexpected character in the sandbox command');
      }
    }
    if (i === start) throw new Error('empty word in the sandbox command');
    words.push(word);
    i++;
  }
  if (quoteWords(words) !== line) throw new Error('the sandbox command does not read back as it was written');
  return words;
}

const BARE_CHAR = /^[A-Za-z0-9_./:=@+,-]$/;
const BARE_WORD = /^[A-Za-z0-9_./:@+,-][A-Za-z0-9_./:=@+,-]*$/;

function quoteWords(words: readonly string[]): string {
  return words.map((w) => (w === '' ? "''" : BARE_WORD.test(w) ? w : `'${w.split("'").join(`'"'"'`)}'`)).join(' ');
}

/** Stops the runtime's proxies and bridges (the CLI at the end of a run or on a signal, so the process can exit). */
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
