/**
 * The cross-process StoreLock on a local disk: `<store>/.meta/lock`, created with O_EXCL (only one
 * creator can win, on every local file system and on NFSv3+), holding who has it (pid, host, when)
 * and refreshed by a heartbeat while held. A holder that died (its pid is gone on this host) or
 * whose heartbeat stopped for `staleMs` is broken, under a second O_EXCL file
 * (`lock.breaking`) so that two breakers cannot both win: the one that gets it re-reads the lock
 * and removes it only if it is still the very file (inode, content and time) it judged stale.
 *
 * Whether a heartbeat stopped is judged on this machine's clock only where that is sound: a lock
 * of this host whose time lies in the past. Another machine's clock (a shared disk) may run behind
 * or ahead, and a lock file can come with any time at all (one shipped in a repository, dated in
 * the future): such a lock is stale once waiting has watched it not change for `staleMs`, by the
 * waiter's own monotonic clock. A time in the future never makes a lock, a breaker's file or a
 * waiter's mark count as fresh forever.
 *
 * The lock never goes through a link: a store folder that is a symbolic link (one a repository
 * ships, `.claude-memories -> ../elsewhere`) is refused before anything is made, and `.meta` is
 * made without following one.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants as FS, fstatSync, futimesSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FsError, LINKED_ROOT } from '../../core/memory/fileSystem';
import { META_FOLDER } from '../../core/memory/paths';
import { StoreLockBusyError, type HeldStoreLock, type StoreLock } from '../../core/memory/storeLock';
import { toFsError } from './fsErrors';

export interface NodeStoreLockOptions {
  /** How long acquire waits for a live holder before giving up (ms). */
  waitMs?: number;
  /** A lock whose heartbeat is older than this is taken to be abandoned (ms). */
  staleMs?: number;
  /** How often a held lock's time is refreshed (ms); well below staleMs. */
  heartbeatMs?: number;
}

export const LOCK_FILE = 'lock';
/** Where a writer that waits for the lock says so (the holder lets go at its next command). */
export const WAITING_FILE = 'waiting';
/** Holder tokens: random per process, then a counter (unique without a random draw per acquire). */
const PROCESS_TOKEN = `${randomBytes(6).toString('hex')}-`;
let tokenCounter = 0;
const BREAK_FILE = 'lock.breaking';
/** How long a releasing holder with more work stands back at most when someone waits. */
const TURN_MS = 16;
/** Longest pause between two polls of a waiter (plus as much jitter): a poll is one failed open. */
const MAX_POLL_MS = 4;
const CREATE_EXCLUSIVE = FS.O_WRONLY | FS.O_CREAT | FS.O_EXCL | FS.O_NOFOLLOW;
const READ = FS.O_RDONLY | FS.O_NOFOLLOW;
/** link(2) errors that mean "no hard links here", not "someone holds the lock". */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

interface HolderInfo {
  pid: number;
  host: string;
  acquiredAt: string;
  token: string;
}

/** What is at the lock path right now. */
interface Holder {
  raw: string;
  info: HolderInfo | undefined;
  ino: number;
  mtimeMs: number;
}

export class NodeStoreLock implements StoreLock {
  readonly metaDir: string;
  private readonly lockPath: string;
  private readonly breakPath: string;
  private readonly waitPath: string;
  private readonly waitMs: number;
  private readonly staleMs: number;
  private readonly heartbeatMs: number;
  private prepared = false;
  private lastRelease = 0;
  /** This machine's name, as holders record it (looked up once, not per acquire). */
  private readonly host = os.hostname();

  constructor(
    private readonly storeDir: string,
    options: NodeStoreLockOptions = {},
  ) {
    if (!path.isAbsolute(storeDir)) throw new Error('NodeStoreLock needs an absolute store folder');
    this.metaDir = path.join(storeDir, META_FOLDER);
    this.lockPath = path.join(this.metaDir, LOCK_FILE);
    this.breakPath = path.join(this.metaDir, BREAK_FILE);
    this.waitPath = path.join(this.metaDir, WAITING_FILE);
    this.waitMs = options.waitMs ?? 10_000;
    this.staleMs = options.staleMs ?? 5_000;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(50, Math.floor(this.staleMs / 5));
  }

  async acquire(): Promise<HeldStoreLock> {
    // Taking turns: an engine with a queue of work would otherwise re-take the lock the instant it
    // let go, and a waiter that sleeps between polls (another process) might never get in.
    if (Date.now() - this.lastRelease < TURN_MS && this.someoneWaiting()) {
      // Stand back until a waiter has taken it (or a turn has passed): a hand-over, not a fixed pause.
      const until = Date.now() + TURN_MS;
      while (Date.now() < until && !this.lockExists()) await sleep(1);
    }
    const started = Date.now();
    let delay = 1;
    let lastHolder: Holder | undefined;
    // The lock as first seen unchanged, and since when (monotonic): a heartbeat moves it.
    let watched: { holder: Holder; since: number } | undefined;
    for (;;) {
      const held = this.tryCreate();
      if (held) return held;
      const holder = this.readHolder();
      if (holder === undefined) continue; // released meanwhile: try again at once
      lastHolder = holder;
      if (watched === undefined || !sameHolder(watched.holder, holder)) watched = { holder, since: performance.now() };
      // Another breaker at work waits like any waiter: going round at once would hold this thread.
      if (this.isStale(holder, performance.now() - watched.since) && this.breakStale(holder)) {
        watched = undefined;
        continue;
      }
      const waited = Date.now() - started;
      if (waited >= this.waitMs) {
        const who = lastHolder.info ? `pid ${lastHolder.info.pid} on ${lastHolder.info.host} since ${lastHolder.info.acquiredAt}` : 'an unknown holder';
        throw new StoreLockBusyError(waited, `the store lock stayed held by ${who} for ${waited} ms`);
      }
      this.markWaiting();
      // Short, growing, jittered waits: operations take milliseconds, and two waiters must not poll in step.
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, MAX_POLL_MS);
    }
  }

  /** The held lock, or undefined when someone else has it. */
  private tryCreate(): HeldStoreLock | undefined {
    this.prepare();
    const token = `${PROCESS_TOKEN}${(tokenCounter++).toString(36)}`;
    const info: HolderInfo = { pid: process.pid, host: this.host, acquiredAt: new Date().toISOString(), token };
    let fd: number;
    try {
      fd = this.createComplete(token, JSON.stringify(info) + '\n');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return undefined;
      // The folder was removed under us (e.g. `git clean`): make it again.
      if (code === 'ENOENT') {
        this.prepared = false;
        return this.tryCreate();
      }
      throw toFsError(e, 'lock', `${META_FOLDER}/${LOCK_FILE}`);
    }
    // The heartbeat touches our own open file: if the lock was ever broken and re-created, it
    // refreshes the old (unlinked) inode, never the new holder's.
    const heartbeat = setInterval(() => {
      try {
        const now = new Date();
        futimesSync(fd, now, now);
      } catch {
        // Closed by release in the meantime.
      }
    }, this.heartbeatMs);
    heartbeat.unref();
    // The lock file is this inode (the staging file linked into place, or the lock created
    // directly): while our descriptor is open no other file can have its number.
    const own = fstatSync(fd);
    let released = false;
    const ours = (): boolean => {
      const now = lstatSync(this.lockPath, { throwIfNoEntry: false });
      return now !== undefined && now.ino === own.ino && now.dev === own.dev;
    };
    return {
      keep: () => {
        try {
          return !released && ours() && !this.someoneWaiting();
        } catch {
          return false;
        }
      },
      release: async () => {
        if (released) return;
        released = true;
        this.lastRelease = Date.now();
        clearInterval(heartbeat);
        try {
          // Only our own lock: if it was broken (we stalled past staleMs), the file is someone
          // else's. Compared while our descriptor still pins the inode number.
          if (ours()) unlinkQuietly(this.lockPath);
        } finally {
          closeSync(fd);
        }
      },
    };
  }

  /**
   * Puts a complete lock file in place or throws EEXIST. The holder info is written to
   * `lock.<token>` first and hard-linked to `lock` (link fails with EEXIST like O_EXCL does), so a
   * holder killed at any moment never leaves an empty lock that only its age could clear. Without
   * hard links (some network and FAT disks) the lock is created with O_EXCL and written after.
   * Returns the open descriptor of the lock's inode, for the heartbeat.
   */
  private createComplete(token: string, content: string): number {
    const staging = path.join(this.metaDir, `${LOCK_FILE}.${token}`);
    const fd = openSync(staging, CREATE_EXCLUSIVE, 0o600);
    let linked = false;
    try {
      writeSync(fd, content);
      try {
        linkSync(staging, this.lockPath);
        linked = true;
      } catch (e) {
        if (!NO_HARD_LINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      }
    } catch (e) {
      closeSync(fd);
      unlinkQuietly(staging);
      throw e;
    }
    unlinkQuietly(staging);
    if (linked) return fd;
    closeSync(fd);
    const direct = openSync(this.lockPath, CREATE_EXCLUSIVE, 0o600);
    try {
      writeSync(direct, content);
    } catch (e) {
      closeSync(direct);
      unlinkQuietly(this.lockPath);
      throw e;
    }
    return direct;
  }

  /**
   * `<store>/.meta` with a `.gitignore` of `*`, made once per lock, never through a link: a store
   * folder that is one (or is not a folder) is refused before anything is made.
   */
  private prepare(): void {
    if (this.prepared) return;
    try {
      const root = lstatSync(this.storeDir, { throwIfNoEntry: false });
      if (root?.isSymbolicLink()) throw new FsError('NoPermissions', LINKED_ROOT);
      if (root !== undefined && !root.isDirectory()) throw new FsError('NoPermissions', 'the memory folder is not a folder');
      if (root === undefined) {
        mkdirSync(this.storeDir, { recursive: true, mode: 0o700 });
        // Made meanwhile by someone else, as a link: mkdir -p would not have said so.
        if (!lstatSync(this.storeDir).isDirectory()) throw new FsError('NoPermissions', LINKED_ROOT);
      }
      try {
        mkdirSync(this.metaDir, { mode: 0o700 });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      if (!lstatSync(this.metaDir).isDirectory()) throw new FsError('NoPermissions', `${META_FOLDER} is not a folder (a symbolic link?)`);
      try {
        const fd = openSync(path.join(this.metaDir, '.gitignore'), CREATE_EXCLUSIVE, 0o600);
        try {
          writeSync(fd, '*\n');
        } finally {
          closeSync(fd);
        }
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    } catch (e) {
      throw toFsError(e, 'lock', META_FOLDER);
    }
    this.removeOldStaging();
    this.prepared = true;
  }

  /** Staging files of holders killed between writing and linking them: harmless, but not kept. */
  private removeOldStaging(): void {
    try {
      for (const name of readdirSync(this.metaDir)) {
        if (!name.startsWith(`${LOCK_FILE}.`) || name === BREAK_FILE) continue;
        const file = path.join(this.metaDir, name);
        if (!isRecent(lstatSync(file).mtimeMs, this.staleMs)) unlinkQuietly(file);
      }
    } catch {
      // Best effort: a failure here changes nothing about the lock itself.
    }
  }

  /** Waiters touch `.meta/waiting` on every poll; a fresh touch means someone wants a turn. */
  private markWaiting(): void {
    try {
      const now = new Date();
      try {
        utimesSync(this.waitPath, now, now);
      } catch {
        closeSync(openSync(this.waitPath, FS.O_WRONLY | FS.O_CREAT | FS.O_NOFOLLOW, 0o600));
      }
    } catch {
      // Only a courtesy: waiting works without it.
    }
  }

  private lockExists(): boolean {
    try {
      return lstatSync(this.lockPath, { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false;
    }
  }

  private someoneWaiting(): boolean {
    try {
      // Usually missing (nobody ever waited): answered without an error to build and throw.
      const mark = lstatSync(this.waitPath, { throwIfNoEntry: false });
      return mark !== undefined && isRecent(mark.mtimeMs, TURN_MS * 2);
    } catch {
      return false;
    }
  }

  private readHolder(): Holder | undefined {
    let fd: number;
    try {
      fd = openSync(this.lockPath, READ);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw toFsError(e, 'lock', `${META_FOLDER}/${LOCK_FILE}`);
    }
    try {
      const stat = lstatSync(this.lockPath);
      const raw = readFileSync(fd, 'utf8');
      return { raw, info: parseInfo(raw), ino: stat.ino, mtimeMs: stat.mtimeMs };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw toFsError(e, 'lock', `${META_FOLDER}/${LOCK_FILE}`);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Dead on this host; or, for a lock of this host (or one too damaged to say whose) whose time
   * is in the past, silent for longer than staleMs by this clock; or, whatever its time or host,
   * seen unchanged for staleMs (`unchangedMs`, measured while waiting).
   */
  private isStale(holder: Holder, unchangedMs: number): boolean {
    const info = holder.info;
    if (info && info.host === this.host && info.pid !== process.pid && !isAlive(info.pid)) return true;
    const age = Date.now() - holder.mtimeMs;
    if ((info === undefined || info.host === this.host) && age > this.staleMs) return true;
    return unchangedMs > this.staleMs;
  }

  /** Removes `judged` if it is still the lock file, with only one breaker at a time; false when another breaker is at it. */
  private breakStale(judged: Holder): boolean {
    let fd: number;
    try {
      fd = openSync(this.breakPath, CREATE_EXCLUSIVE, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw toFsError(e, 'lock', `${META_FOLDER}/${BREAK_FILE}`);
      // Someone else is breaking it. A breaker holds this for microseconds: an old one (or one
      // dated in the future, which no breaker of ours writes) crashed or was planted.
      try {
        if (!isRecent(lstatSync(this.breakPath).mtimeMs, this.staleMs)) unlinkQuietly(this.breakPath);
      } catch {
        // Gone already.
      }
      return false;
    }
    try {
      const now = this.readHolder();
      if (now && sameHolder(now, judged)) unlinkQuietly(this.lockPath);
    } finally {
      closeSync(fd);
      unlinkQuietly(this.breakPath);
    }
    return true;
  }
}

/** The same lock file, unchanged: inode, content and time (a heartbeat changes the time). */
function sameHolder(a: Holder, b: Holder): boolean {
  return a.ino === b.ino && a.raw === b.raw && a.mtimeMs === b.mtimeMs;
}

/** A time within the last `ms` by this clock (one in the future by more than a second is not recent: no clock of ours wrote it). */
function isRecent(mtimeMs: number, ms: number): boolean {
  const age = Date.now() - mtimeMs;
  return age <= ms && age >= -1000;
}

function parseInfo(raw: string): HolderInfo | undefined {
  try {
    const v = JSON.parse(raw) as Partial<HolderInfo>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.token === 'string') {
      return { pid: v.pid, host: v.host, token: v.token, acquiredAt: String(v.acquiredAt ?? '') };
    }
  } catch {
    // Empty (the holder died between creating and writing it) or damaged: judged by age alone.
  }
  return undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, it is just not ours to signal.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function unlinkQuietly(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // Already gone.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
