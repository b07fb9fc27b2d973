/**
 * Where a folder's checkpoints live, and opening them: one repository per folder, outside the
 * workspace (nothing in it can be reached, committed or cloned with the project), at the same
 * place for the extension and the CLI, so both list and rewind the same checkpoints:
 *
 *   Linux:   $XDG_STATE_HOME/claude-memory/checkpoints/<name>-<hash>  (default ~/.local/state)
 *   macOS:   ~/Library/Application Support/claude-memory/checkpoints/<name>-<hash>
 *   Windows: %LOCALAPPDATA%\claude-memory\checkpoints\<name>-<hash>
 *
 * `<hash>` is the first 16 hex digits of the SHA-256 of the folder's real path, `<name>` its
 * last segment (for a person looking at the folder), made safe.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointMemory, type CheckpointMemoryEngine } from '../../core/checkpoints/memoryRewind';
import { CheckpointStore, DEFAULT_CHECKPOINT_MAX_FILE_BYTES, type WorkTreeProbe } from '../../core/checkpoints/checkpointStore';
import { CHECKPOINT_ATTRIBUTES, Git, type GitRunner } from '../../core/checkpoints/git';
import { WorkspaceGit } from '../../core/checkpoints/workspaceGit';
import { AUTHORS } from '../../core/memory/history/types';
import { NodeGitRunner } from './gitProcess';

/** The folder that holds every workspace's checkpoint repository. */
export function checkpointsHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  if (platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'claude-memory', 'checkpoints');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'claude-memory', 'checkpoints');
  const state = env.XDG_STATE_HOME !== undefined && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  return path.join(state, 'claude-memory', 'checkpoints');
}

/** The checkpoint repository of `folder` (which must exist). */
export function checkpointRepositoryDir(folder: string, home: string = checkpointsHome()): string {
  const real = fs.realpathSync.native(folder);
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 16);
  const name = path.basename(real).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'folder';
  return path.join(home, `${name}-${hash}`);
}

export interface OpenCheckpointsOptions {
  /** The memory folder, relative to the workspace folder (left out of file checkpoints). */
  memoryFolder: string;
  /** Its engine: memory is checkpointed through history (undefined: files only). */
  memory?: CheckpointMemoryEngine;
  maxFileBytes?: number;
  /** Default: checkpointsHome(). */
  home?: string;
  runner?: GitRunner;
  now?: () => number;
}

/** The checkpoint store of `folder`; its repository is made on first use. */
export async function openCheckpoints(folder: string, options: OpenCheckpointsOptions): Promise<CheckpointStore> {
  const workTree = fs.realpathSync.native(folder);
  const gitDir = checkpointRepositoryDir(workTree, options.home);
  const runner = options.runner ?? new NodeGitRunner();
  const git = new Git(runner, { gitDir, workTree });
  const memoryFolder = await prepareRepository(git, gitDir, options.memoryFolder);
  const memory = options.memory === undefined ? undefined : new CheckpointMemory(options.memory, AUTHORS.user);
  return new CheckpointStore(git, new NodeWorkTreeProbe(workTree), memory, {
    maxFileBytes: options.maxFileBytes ?? DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
    now: options.now,
    // The folder's own repository: HEAD with each checkpoint, the branch moved with a rewind when asked.
    workspace: new WorkspaceGit(runner, workTree),
    memoryFolder,
  });
}

/** Makes the repository on first use and writes its exclude and attributes; returns the memory folder as it excludes it. */
async function prepareRepository(git: Git, gitDir: string, memoryFolder: string): Promise<string> {
  if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
    await fs.promises.mkdir(gitDir, { recursive: true, mode: 0o700 });
    await git.run(['init', '--quiet', '--bare', gitDir], { bare: true });
  }
  const info = path.join(gitDir, 'info');
  await fs.promises.mkdir(info, { recursive: true });
  const memory = memoryFolder.split(/[\\/]+/).filter((s) => s !== '' && s !== '.').join('/');
  // Anchored patterns with glob characters escaped: the folder's name is taken literally.
  const exclude = ['.git', ...(memory === '' ? [] : [`/${memory.replace(/[*?[\]\\!#]/g, (c) => `\\${c}`)}`])].join('\n') + '\n';
  await writeIfChanged(path.join(info, 'exclude'), exclude);
  await writeIfChanged(path.join(info, 'attributes'), CHECKPOINT_ATTRIBUTES);
  return memory;
}

async function writeIfChanged(file: string, text: string): Promise<void> {
  const old = await fs.promises.readFile(file, 'utf8').catch(() => undefined);
  if (old !== text) await fs.promises.writeFile(file, text);
}

class NodeWorkTreeProbe implements WorkTreeProbe {
  constructor(private readonly root: string) {}

  async sizeOf(rel: string): Promise<number | undefined> {
    const stat = await fs.promises.lstat(path.join(this.root, rel)).catch(() => undefined);
    return stat !== undefined && (stat.isFile() || stat.isSymbolicLink()) ? stat.size : undefined;
  }

  async modifiedAt(rel: string): Promise<number | undefined> {
    return (await fs.promises.lstat(path.join(this.root, rel)).catch(() => undefined))?.mtimeMs;
  }
}
