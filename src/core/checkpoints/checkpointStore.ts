/**
 * Checkpoints of a workspace folder: before every chat message and every `run` prompt, the
 * folder's files (tracked and untracked, minus what its .gitignore files ignore, `.git`, the
 * memory folder and nested repositories) are committed to a private ref of a separate git
 * repository outside the workspace (see git.ts for what keeps the workspace's git out), with
 * the memory store's history position in the commit message. A rewind brings the folder back
 * to a checkpoint with `git read-tree -u --reset`: git itself writes, removes and recreates
 * files (symlinks as symlinks; it never writes through a symlinked folder), and touches only
 * what differs between the snapshot of now and the checkpoint, so ignored files, unchanged
 * untracked files, `.git` and its commits stay as they are.
 *
 * Layout of the repository: its own index (the stat cache that makes a checkpoint after the
 * first cost about one `git status`), `info/exclude` (`.git`, the memory folder),
 * `info/attributes` (CHECKPOINT_ATTRIBUTES), and one ref per checkpoint,
 * `refs/checkpoints/<id>`, ids counting up from 1, created atomically so the extension and
 * the CLI can share one repository.
 */
import { decode, Git, GitError, literalPathspec } from './git';
import { addLineCounts, parseRaw, type FileDelta } from './fileDeltas';
import type { CheckpointMemory, MemoryStep } from './memoryRewind';
import { mergeSkipped, parseNameStatus, type FileChange, type RewindPlan, type SkippedFile } from './rewindPlan';
import { BranchNotMovableError, parseMeta, refusedByAdd, UnknownCheckpointError, type CheckpointInfo, type CheckpointKind, type CheckpointStoreOptions, type RewindOptions, type RewindResult, type WorkTreeProbe } from './checkpointInfo';
import { planBranch, type BranchPlan } from './branchPlan';

export {
  BranchNotMovableError,
  DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
  refusedByAdd,
  UnknownCheckpointError,
  type CheckpointInfo,
  type CheckpointKind,
  type CheckpointStoreOptions,
  type RewindOptions,
  type RewindResult,
  type WorkTreeProbe,
} from './checkpointInfo';

const DEFAULT_MAX_CHECKPOINTS = 200;
const REF_PREFIX = 'refs/checkpoints/';
const PROMPT_CHARS = 500;

interface Snapshot {
  tree: string;
  skipped: SkippedFile[];
}

export class CheckpointStore {
  private readonly maxCheckpoints: number;
  private readonly now: () => number;
  /** The index was checked whole for ignored entries and gitlinks (see snapshot). */
  private checkedWhole = false;
  /** One git operation on the repository's index at a time in this process. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly git: Git,
    private readonly probe: WorkTreeProbe,
    private readonly memory: CheckpointMemory | undefined,
    private readonly options: CheckpointStoreOptions,
  ) {
    this.maxCheckpoints = options.maxCheckpoints ?? DEFAULT_MAX_CHECKPOINTS;
    this.now = options.now ?? Date.now;
  }

  /** Records a checkpoint of the folder and the memory position now. */
  create(what: { kind: CheckpointKind; prompt: string; session?: string }): Promise<CheckpointInfo> {
    return this.serial(() => this.createNow(what));
  }

  /** Every checkpoint, oldest first. */
  list(): Promise<CheckpointInfo[]> {
    return this.serial(() => this.listNow());
  }

  /** A checkpoint by its id as the user typed it ("3"); throws UnknownCheckpointError. */
  get(id: string | number): Promise<CheckpointInfo> {
    return this.serial(() => this.getNow(id));
  }

  /** For each checkpoint, what changed since (files and memory), against one snapshot of now. */
  changesSince(infos: readonly CheckpointInfo[]): Promise<Map<number, { files: FileChange[]; memory: MemoryStep[] }>> {
    return this.serial(async () => {
      const now = await this.snapshot();
      const out = new Map<number, { files: FileChange[]; memory: MemoryStep[] }>();
      for (const info of infos) {
        // What changed since = what a rewind would undo, read the other way round.
        const files = await this.diff(now.tree, `${info.commit}^{tree}`);
        const memory = info.memoryVersion === undefined || this.memory === undefined ? [] : await this.memory.plan(info.memoryVersion);
        out.set(info.id, { files, memory });
      }
      return out;
    });
  }

  /**
   * What rewinding to `id` would change, without changing anything in the folder or memory:
   * the files, memory, and the commits made on the folder's branch since (`git`).
   */
  preview(id: string | number): Promise<RewindPlan> {
    return this.serial(async () => {
      const target = await this.getNow(id);
      const now = await this.snapshot();
      const { checkpointId, files, notRestored, leftIgnored, memory } = await this.planNow(target, now);
      const plan: RewindPlan = { checkpointId, files, notRestored, leftIgnored, memory };
      const git = await this.branchPlanNow(target, plan, now.tree);
      return git === undefined ? plan : { ...plan, git };
    });
  }

  /**
   * Rewinds the folder and memory to checkpoint `id`. The state just before is recorded first
   * as a checkpoint of its own (`backup`), so a rewind can be rewound. With `moveBranch`, the
   * folder's branch goes back to the checkpoint's commit too (branchPlan.ts: only when the
   * checkpoint explains how it moved; otherwise BranchNotMovableError and nothing is rewound).
   */
  rewind(id: string | number, options: RewindOptions = {}): Promise<RewindResult> {
    return this.serial(async () => {
      const target = await this.getNow(id);
      const backup = await this.createNow({ kind: 'rewind', prompt: `Before rewinding to checkpoint ${target.id}` });
      const now: Snapshot = { tree: `${backup.commit}^{tree}`, skipped: backup.skipped };
      // (createNow's snapshot left the index at exactly this tree.)
      const plan = await this.planNow(target, now);
      const git = await this.branchPlanNow(target, plan, now.tree);
      const move = options.moveBranch === undefined || options.moveBranch === false ? undefined : git;
      if (move !== undefined) {
        if (!move.movable) throw new BranchNotMovableError(move.reason ?? 'it moved in a way the checkpoint cannot explain.');
        const expected = typeof options.moveBranch === 'object' ? options.moveBranch.from : undefined;
        if (expected !== undefined && expected !== move.from) throw new BranchNotMovableError(`${move.branch ?? 'HEAD'} moved since the preview; look again.`);
      }
      // The index holds the snapshot of now (with fresh stat data): read-tree -u changes in the
      // folder exactly the entries that differ from the target, and nothing it does not track.
      await this.git.run(['read-tree', '-u', '--reset', plan.targetTree]);
      const memory = this.memory === undefined ? [] : await this.memory.apply(plan.memory);
      const result: RewindResult = { checkpointId: target.id, files: plan.files, notRestored: plan.notRestored, leftIgnored: plan.leftIgnored, memory, backup, ...(git ? { git } : {}) };
      const workspace = this.options.workspace;
      if (move?.ref !== undefined && workspace !== undefined) {
        try {
          await workspace.moveBranch(move.ref, move.from, move.to, `claude-memory: rewind to checkpoint ${target.id}`);
          result.branchMoved = true;
        } catch (error) {
          result.branchError = error instanceof Error ? error.message : String(error);
        }
      }
      return result;
    });
  }

  /**
   * Every workspace file that differs between checkpoint `id` and now, with its +/− lines and
   * its content id now (the chat's change summary).
   */
  filesSince(id: string | number): Promise<FileDelta[]> {
    return this.serial(async () => {
      const target = await this.getNow(id);
      const now = await this.snapshot();
      return this.deltas(`${target.commit}^{tree}`, now.tree);
    });
  }

  /**
   * The paths that differ between checkpoint `from` and checkpoint `to` (undefined: now), so a
   * caller can tell which messages' answers changed a file.
   */
  pathsChangedBetween(from: string | number, to: string | number | undefined): Promise<Set<string>> {
    return this.serial(async () => {
      const a = await this.getNow(from);
      const b = to === undefined ? (await this.snapshot()).tree : `${(await this.getNow(to)).commit}^{tree}`;
      return new Set((await this.diff(`${a.commit}^{tree}`, b)).map((f) => f.path));
    });
  }

  /** A file's bytes in checkpoint `id`; undefined when it was not there (or not snapshotted). */
  fileAt(id: string | number, path: string): Promise<Uint8Array | undefined> {
    return this.serial(async () => {
      const target = await this.getNow(id);
      const result = await this.git.run(['cat-file', 'blob', `${target.commit}:${path}`], { okCodes: [0, 1, 128] });
      return result.code === 0 ? result.stdout : undefined;
    });
  }

  /**
   * Rewinds only `paths` (folder-relative) to checkpoint `id`, through the same plan as a whole
   * rewind (files over the size limit and files ignored now are left as they are); nothing else
   * in the folder and nothing in memory is touched. The state just before is recorded first as
   * a checkpoint (`backup`).
   */
  rewindFiles(id: string | number, paths: readonly string[]): Promise<RewindResult> {
    return this.serial(async () => {
      const target = await this.getNow(id);
      const wanted = new Set(paths);
      const shown = paths.length === 1 ? paths[0] : `${paths.length} files`;
      const backup = await this.createNow({ kind: 'rewind', prompt: `Before undoing ${shown} to checkpoint ${target.id}` });
      const nowTree = `${backup.commit}^{tree}`;
      const plan = await this.planNow(target, { tree: nowTree, skipped: backup.skipped });
      const files = plan.files.filter((f) => wanted.has(f.path));
      const done: RewindResult = {
        checkpointId: target.id,
        files,
        notRestored: plan.notRestored.filter((f) => wanted.has(f.path)),
        leftIgnored: plan.leftIgnored.filter((p) => wanted.has(p)),
        memory: [],
        backup,
      };
      if (files.length === 0) return done;
      // Now's tree with only these paths as the target has them (or without them).
      const scratch = `${this.git.repo.gitDir}/rewind-index`;
      await this.git.run(['read-tree', nowTree], { indexFile: scratch });
      const entries = new Map<string, string>();
      for (const record of await this.git.records(['ls-tree', '-z', '-r', plan.targetTree, '--', ...files.map((f) => literalPathspec(f.path))])) {
        entries.set(record.slice(record.indexOf('\t') + 1), record);
      }
      const zero = '0'.repeat(40);
      const lines = files.map((f) => entries.get(f.path) ?? `0 ${zero}\t${f.path}`);
      await this.git.run(['update-index', '-z', '--index-info'], { indexFile: scratch, input: lines.join('\0') + '\0' });
      const mixed = await this.git.text(['write-tree'], { indexFile: scratch });
      // The index holds the snapshot of now (createNow): only these paths differ from `mixed`.
      await this.git.run(['read-tree', '-u', '--reset', mixed]);
      return done;
    });
  }

  /**
   * What changed since checkpoint `id` that checkpoints do not cover, so neither the change
   * summary nor a rewind can show or undo it: entries the .gitignore files ignore that were
   * modified after the checkpoint (a folder ignored whole, like `node_modules/`, is one entry, by
   * its own time). By file time, as git keeps no record of ignored files: a hint for the user,
   * never a decision. The memory folder and .git are left out. At most `max` paths, and how many.
   */
  ignoredChangedSince(id: string | number, max = 20): Promise<{ paths: string[]; total: number }> {
    return this.serial(async () => {
      const target = await this.getNow(id);
      const probe = this.probe.modifiedAt?.bind(this.probe);
      if (probe === undefined) return { paths: [], total: 0 };
      const memory = this.options.memoryFolder;
      const entries = await this.git.records(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory', '--no-empty-directory']);
      const changed: string[] = [];
      for (const entry of entries) {
        const rel = entry.replace(/\/$/, '');
        if (rel === '.git' || rel.startsWith('.git/') || (memory !== undefined && memory !== '' && (rel === memory || rel.startsWith(`${memory}/`)))) continue;
        const time = await probe(rel);
        if (time !== undefined && time > target.time) changed.push(entry);
      }
      return { paths: changed.slice(0, max), total: changed.length };
    });
  }

  /** The memory files changed since checkpoint `id` (what a rewind of memory would do). */
  memorySince(id: string | number): Promise<MemoryStep[]> {
    return this.serial(async () => {
      const target = await this.getNow(id);
      return target.memoryVersion === undefined || this.memory === undefined ? [] : this.memory.plan(target.memoryVersion);
    });
  }

  /** Brings only the memory files `rels` back to their state at checkpoint `id` (through history, as the user's versions). */
  rewindMemory(id: string | number, rels: readonly string[]): Promise<MemoryStep[]> {
    return this.serial(async () => {
      const target = await this.getNow(id);
      if (target.memoryVersion === undefined || this.memory === undefined) return [];
      const wanted = new Set(rels);
      const steps = (await this.memory.plan(target.memoryVersion)).filter((s) => wanted.has(s.rel));
      return this.memory.apply(steps);
    });
  }

  // ---- internals (run inside the queue)

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async createNow(what: { kind: CheckpointKind; prompt: string; session?: string }): Promise<CheckpointInfo> {
    const memoryVersion = this.memory === undefined ? undefined : await this.memory.position();
    const head = (await this.options.workspace?.state())?.head;
    const snapshot = await this.snapshot();
    const meta: Omit<CheckpointInfo, 'id' | 'commit'> = {
      time: this.now(),
      kind: what.kind,
      prompt: [...what.prompt].slice(0, PROMPT_CHARS).join(''),
      skipped: snapshot.skipped,
    };
    if (what.session !== undefined) meta.session = what.session;
    if (memoryVersion !== undefined) meta.memoryVersion = memoryVersion;
    if (head !== undefined) meta.head = head;
    const commit = await this.git.text(['commit-tree', snapshot.tree, '-F', '-'], { input: JSON.stringify(meta) });
    const existing = await this.listNow();
    let id = (existing.at(-1)?.id ?? 0) + 1;
    // Created only if absent: another process (the CLI, another window) may take the same id.
    for (;;) {
      const created = await this.git.run(['update-ref', `${REF_PREFIX}${id}`, commit, ''], { okCodes: [0, 1, 128] });
      if (created.code === 0) break;
      if (id > (existing.at(-1)?.id ?? 0) + 1000) throw new GitError('update-ref', created.code, created.stderr);
      id++;
    }
    await this.dropOld(existing);
    return { id, commit, ...meta };
  }

  private async dropOld(existing: readonly CheckpointInfo[]): Promise<void> {
    const excess = existing.length + 1 - this.maxCheckpoints;
    if (excess <= 0) return;
    const lines = existing.slice(0, excess).map((c) => `delete ${REF_PREFIX}${c.id}\n`).join('');
    await this.git.run(['update-ref', '--stdin'], { input: lines });
  }

  private async listNow(): Promise<CheckpointInfo[]> {
    const out = decode((await this.git.run(['for-each-ref', '--format=%(refname:lstrip=2)%00%(objectname)%00%(contents)%00', REF_PREFIX])).stdout);
    const fields = out.split('\0');
    const infos: CheckpointInfo[] = [];
    for (let i = 0; i + 2 < fields.length; i += 3) {
      const id = Number(fields[i].trim());
      const info = parseMeta(fields[i + 2], id, fields[i + 1]);
      if (info !== undefined) infos.push(info);
    }
    return infos.sort((a, b) => a.id - b.id);
  }

  private async getNow(id: string | number): Promise<CheckpointInfo> {
    const text = String(id).trim();
    if (!/^[1-9][0-9]{0,8}$/.test(text)) throw new UnknownCheckpointError(text);
    const found = (await this.listNow()).find((c) => c.id === Number(text));
    if (found === undefined) throw new UnknownCheckpointError(text);
    return found;
  }

  /**
   * The folder's files now, as a tree in the repository (and in its index). Files over the
   * size limit are left out (and out of the index), as are files the .gitignore files ignore
   * (also those the index still had from before they were ignored) and nested repositories.
   *
   * Only what `ls-files --others --modified` names (new, changed or deleted since the index last
   * saw it: one stat pass over the folder) is added, so a checkpoint after the first costs about
   * what `git status` does. The index is checked whole for entries that are ignored now (or
   * nested repositories) when that can have changed: the first snapshot of this store object
   * (the exclude file may be new) and whenever a .gitignore file changed.
   */
  private async snapshot(): Promise<Snapshot> {
    const candidates = [...new Set(await this.git.records(['ls-files', '-z', '--others', '--modified', '--exclude-standard']))];
    const skipped: SkippedFile[] = [];
    const toAdd: string[] = [];
    for (const rel of candidates) {
      // "sub/": an untracked folder git shows whole is a nested repository: left out.
      if (rel.endsWith('/')) continue;
      const size = await this.probe.sizeOf(rel);
      if (size !== undefined && size > this.options.maxFileBytes) skipped.push({ path: rel, size });
      else toAdd.push(rel);
    }
    // Entries the index has but `add` must not take: over the limit, ignored now, beyond a link.
    const drop = new Set<string>(skipped.map((s) => s.path));
    for (let attempt = 0; toAdd.length > 0; attempt++) {
      const added = await this.git.run(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: toAdd.map(literalPathspec).join('\0'), okCodes: [0, 1, 128] });
      if (added.code === 0) break;
      const refused = refusedByAdd(added.stderr);
      const kept = toAdd.filter((p) => !refused.some((r) => p === r || p.startsWith(`${r}/`)));
      if (kept.length === toAdd.length || attempt > 100) throw new GitError('add', added.code, added.stderr);
      for (const p of toAdd) if (!kept.includes(p)) drop.add(p);
      toAdd.splice(0, toAdd.length, ...kept);
    }
    if (!this.checkedWhole || candidates.some((p) => p === '.gitignore' || p.endsWith('/.gitignore'))) {
      for (const p of await this.git.records(['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'])) drop.add(p);
      for (const record of await this.git.records(['ls-files', '-z', '--stage'])) {
        // "<mode> <object> <stage>\t<path>": mode 160000 is a nested repository (a gitlink).
        if (record.startsWith('160000 ')) drop.add(record.slice(record.indexOf('\t') + 1));
      }
      this.checkedWhole = true;
    }
    if (drop.size > 0) {
      // An index operation only: nothing in the folder is looked at (a path may lie beyond a link).
      await this.git.run(['update-index', '-z', '--force-remove', '--stdin'], { input: [...drop].join('\0') + '\0' });
    }
    const tree = await this.git.text(['write-tree']);
    return { tree, skipped };
  }

  /**
   * The plan from `now` to `target`, and the tree the folder is read to: the target's, except
   * that files over the size limit then or now keep their entry of now (or stay absent), so a
   * file the checkpoints could not hold is never removed or overwritten; and files the
   * .gitignore files ignore now are not brought back over what is there (ignored files stay).
   */
  private async planNow(target: CheckpointInfo, now: Snapshot): Promise<RewindPlan & { targetTree: string }> {
    const notRestored = mergeSkipped(target.skipped, now.skipped);
    let targetTree = `${target.commit}^{tree}`;
    let files = await this.diff(now.tree, targetTree);
    const back = new Set(files.filter((f) => f.change === 'bring back').map((f) => f.path));
    const leftIgnored = back.size === 0 ? [] : (await this.ignoredNow(targetTree)).filter((p) => back.has(p));
    const keep = [...notRestored.map((f) => f.path), ...leftIgnored];
    if (keep.length > 0) {
      targetTree = await this.treeKeeping(targetTree, keep);
      files = await this.diff(now.tree, targetTree);
    }
    const memory = target.memoryVersion === undefined || this.memory === undefined ? [] : await this.memory.plan(target.memoryVersion);
    return { checkpointId: target.id, files, notRestored, leftIgnored: leftIgnored.sort(), memory, targetTree };
  }

  /**
   * The branch's part of rewinding to `target` (branchPlan.ts), `now` being the snapshot the plan
   * starts from; undefined when the folder has no repository or nothing moved. A git that cannot
   * read the repository leaves the branch out rather than the rewind.
   */
  private async branchPlanNow(target: CheckpointInfo, plan: RewindPlan, nowTree: string): Promise<BranchPlan | undefined> {
    const workspace = this.options.workspace;
    if (workspace === undefined || target.head === undefined) return undefined;
    try {
      return await planBranch(workspace, target.head, (paths) => this.uncovered(target, plan, nowTree, paths));
    } catch {
      return undefined;
    }
  }

  /** Of `paths` (folder-relative), the ones rewinding to `target` cannot bring back to how they were then, each with why. */
  private async uncovered(target: CheckpointInfo, plan: RewindPlan, nowTree: string, paths: readonly string[]): Promise<string[]> {
    const memoryFolder = this.options.memoryFolder;
    const memoryPrefix = memoryFolder === undefined || memoryFolder === '' ? undefined : `${memoryFolder}/`;
    const memoryKept = target.memoryVersion !== undefined && this.memory !== undefined;
    const lostMemory = new Set(plan.memory.filter((m) => m.action === 'unavailable').map((m) => m.rel));
    const left = new Set([...plan.notRestored.map((f) => f.path), ...plan.leftIgnored]);
    let known: Set<string> | undefined;
    const out: string[] = [];
    for (const path of paths) {
      if (memoryPrefix !== undefined && path.startsWith(memoryPrefix)) {
        if (!memoryKept || lostMemory.has(path.slice(memoryPrefix.length))) out.push(`${path} (memory not restored)`);
        continue;
      }
      if (left.has(path)) {
        out.push(`${path} (left as it is)`);
        continue;
      }
      known ??= new Set([...(await this.git.records(['ls-tree', '-r', '-z', '--name-only', `${target.commit}^{tree}`])), ...(await this.git.records(['ls-tree', '-r', '-z', '--name-only', nowTree]))]);
      if (!known.has(path)) out.push(`${path} (not in checkpoints)`);
    }
    return out;
  }

  /** The entries of `tree` that the .gitignore files (as they are now) ignore. */
  private async ignoredNow(tree: string): Promise<string[]> {
    const scratch = `${this.git.repo.gitDir}/rewind-index`;
    await this.git.run(['read-tree', tree], { indexFile: scratch });
    return this.git.records(['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], { indexFile: scratch });
  }

  /** `tree` with `paths` as the index (the snapshot of now) has them: same entry, or absent. */
  private async treeKeeping(tree: string, paths: readonly string[]): Promise<string> {
    const scratch = `${this.git.repo.gitDir}/rewind-index`;
    await this.git.run(['read-tree', tree], { indexFile: scratch });
    // The index holds the snapshot of now (planNow always follows a snapshot).
    const current = new Map<string, string>();
    for (const record of await this.git.records(['ls-files', '-z', '--stage', '--', ...paths.map(literalPathspec)])) {
      // "<mode> <object> <stage>\t<path>"
      const tab = record.indexOf('\t');
      const [mode, object] = record.slice(0, tab).split(' ');
      const path = record.slice(tab + 1);
      current.set(path, `${mode} ${object}\t${path}`);
    }
    const zero = '0'.repeat(40);
    const lines = paths.map((p) => current.get(p) ?? `0 ${zero}\t${p}`);
    await this.git.run(['update-index', '-z', '--index-info'], { indexFile: scratch, input: lines.join('\0') + '\0' });
    return this.git.text(['write-tree'], { indexFile: scratch });
  }

  private async deltas(from: string, to: string): Promise<FileDelta[]> {
    const files = parseRaw(await this.git.records(['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to]));
    if (files.length === 0) return files;
    // --text: the repository's attributes mark every file -diff (no conversions), which would
    // hide every line count; binary files are found by their NUL bytes instead.
    const patch = decode((await this.git.run(['diff-tree', '-r', '-p', '--text', '-U0', '--no-renames', '--no-color', from, to])).stdout);
    return addLineCounts(files, patch);
  }

  private async diff(from: string, to: string): Promise<FileChange[]> {
    return parseNameStatus(await this.git.records(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to]));
  }
}
