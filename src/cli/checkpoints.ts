/**
 * `claude-memory checkpoints` and `claude-memory rewind ID`: the workspace's checkpoints (taken
 * before every chat message and every `run` prompt, in the repository checkpointRepository.ts
 * places outside the workspace, shared with the extension) and going back to one of them.
 */
import { formatSize } from '../core/memory';
import { BranchNotMovableError, branchLine, planSummary, UnknownCheckpointError, type CheckpointInfo, type CheckpointStore, type FileChange, type MemoryStep, type RewindPlan, type RewindResult } from '../core/checkpoints';
import { displayOf } from '../core/memory/paths';
import { openCheckpoints } from '../platform/node/checkpointRepository';
import { CLI_NAME, type CommandStartIo, parseOptions, startCommand, UsageError } from './args';
import { oneLine, STORE_FOLDER } from './exec';
import { columns, localTime, openHistoryStore, processOutputIo } from './storeHistory';

export const CHECKPOINTS_USAGE = `Usage: ${CLI_NAME} checkpoints [--workspace DIR] [--json]

Lists the checkpoints of DIR, oldest first: one is taken before every chat message and every
'${CLI_NAME} run' prompt. Each line shows its id, local time, the prompt, and what changed
since (workspace files, and memory files in DIR/${STORE_FOLDER}). Go back to one with
'${CLI_NAME} rewind ID'.

Options:
  -w, --workspace DIR   Workspace folder (default: the current folder).
      --json            Print one JSON array of {id, time, kind, prompt, session?, files,
                        memory, notCheckpointed}.
  -h, --help            Show this help.
`;

export const REWIND_USAGE = `Usage: ${CLI_NAME} rewind [--workspace DIR] [--dry-run] [--move-branch] ID

Brings DIR and its memory back to checkpoint ID (see '${CLI_NAME} checkpoints'): files changed
since get their content back, files created since are removed, files deleted since come back,
and memory files return to their versions then (recorded as your versions, so each can be
undone). Files the .gitignore files ignore, .git and untracked files that did not change are not
touched. The state just before is saved as a new checkpoint, so the rewind can be rewound.

Commits made on DIR's branch since the checkpoint are named, and stay on the branch (the rewind
then shows as uncommitted changes) unless --move-branch moves the branch back to the commit it
was on then. The commits stay in the reflog ('git reflog'). The branch is moved only when the
checkpoint explains how it moved: the same branch, only new commits (no rebase, reset or
amend), nothing staged, no merge in progress, and every file the commits change is one the
rewind brings back; otherwise the rewind says why and changes nothing.

Options:
  -w, --workspace DIR   Workspace folder (default: the current folder).
      --dry-run         Only list what the rewind would change.
      --move-branch     Move the branch back (or forward again) to the checkpoint's commit too.
  -h, --help            Show this help.
`;

async function open(workspace: string, io: CommandStartIo, command: string): Promise<CheckpointStore> {
  const { engine } = openHistoryStore(workspace, (e) => io.stderr.write(`${CLI_NAME} ${command}: internal error: ${oneLine(e)}\n`));
  return openCheckpoints(workspace, { memoryFolder: STORE_FOLDER, memory: engine });
}

export async function checkpointsCommand(argv: string[], io: CommandStartIo = processOutputIo()): Promise<number> {
  const start = startCommand('checkpoints', CHECKPOINTS_USAGE, argv, parseListArgs, io);
  if ('exitCode' in start) return start.exitCode;
  const { args, workspace } = start;
  try {
    const store = await open(workspace, io, 'checkpoints');
    const list = await store.list();
    const since = await store.changesSince(list);
    if (args.json) {
      const json = list.map((c) => ({
        id: c.id,
        time: new Date(c.time).toISOString(),
        kind: c.kind,
        prompt: c.prompt,
        ...(c.session === undefined ? {} : { session: c.session }),
        files: since.get(c.id)?.files ?? [],
        memory: (since.get(c.id)?.memory ?? []).map((m) => ({ path: displayOf(m.rel), action: m.action })),
        notCheckpointed: c.skipped,
      }));
      io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      return 0;
    }
    if (list.length === 0) {
      io.stdout.write(`No checkpoints yet: one is taken before every chat message and every '${CLI_NAME} run' prompt.\n`);
      return 0;
    }
    const rows = list.map((c) => [String(c.id), localTime(c.time), promptLine(c), planSummary(since.get(c.id) ?? { files: [], memory: [] })]);
    io.stdout.write(columns([['ID', 'TIME', 'PROMPT', 'CHANGED SINCE'], ...rows]));
    return 0;
  } catch (e) {
    io.stderr.write(`${CLI_NAME} checkpoints: ${oneLine(e)}\n`);
    return 1;
  }
}

export async function rewindCommand(argv: string[], io: CommandStartIo = processOutputIo()): Promise<number> {
  const start = startCommand('rewind', REWIND_USAGE, argv, parseRewindArgs, io);
  if ('exitCode' in start) return start.exitCode;
  const { args, workspace } = start;
  try {
    const store = await open(workspace, io, 'rewind');
    if (args.dryRun) {
      const plan = await store.preview(args.id);
      io.stdout.write(`Rewinding to checkpoint ${plan.checkpointId} would change ${planSummary(plan)}.\n${planLines(plan, 'would')}${branchLines(plan, args.moveBranch)}`);
      return 0;
    }
    const result = await store.rewind(args.id, { moveBranch: args.moveBranch });
    io.stdout.write(`Rewound to checkpoint ${result.checkpointId}: ${planSummary(result)}.\n${planLines(result, 'did')}${branchLines(result, args.moveBranch)}`);
    io.stdout.write(`Undo this rewind with '${CLI_NAME} rewind ${result.backup.id}${result.branchMoved ? ' --move-branch' : ''}'.\n`);
    return result.branchError === undefined ? 0 : 1;
  } catch (e) {
    if (e instanceof UnknownCheckpointError) {
      io.stderr.write(`${CLI_NAME} rewind: there is no checkpoint '${e.id}' (see '${CLI_NAME} checkpoints').\n`);
      return 2;
    }
    if (e instanceof BranchNotMovableError) {
      io.stderr.write(`${CLI_NAME} rewind: ${e.message} Nothing was rewound; without --move-branch the files alone go back.\n`);
      return 1;
    }
    io.stderr.write(`${CLI_NAME} rewind: ${oneLine(e)}\n`);
    return 1;
  }
}

/** The prompt on one line, shortened for a table. */
function promptLine(c: CheckpointInfo): string {
  const line = c.prompt.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  const text = chars.length > 60 ? `${chars.slice(0, 59).join('')}…` : line;
  return c.kind === 'run' ? `run: ${text}` : text;
}

const FILE_VERBS: Record<FileChange['change'], [string, string]> = {
  restore: ['restored', 'restore'],
  remove: ['removed', 'remove'],
  'bring back': ['brought back', 'bring back'],
};
const MEMORY_VERBS: Record<MemoryStep['action'], [string, string]> = {
  restore: ['restored', 'restore'],
  remove: ['removed', 'remove'],
  unavailable: ['not restored (no longer in history)', 'not restore (no longer in history)'],
};

/**
 * The branch's lines: the commits since and what happens to them ("1 commit since stays on main:
 * e8da554 Add remove()"), why the branch cannot move, or that it moved.
 */
export function branchLines(plan: RewindPlan | RewindResult, moveBranch: boolean): string {
  const git = plan.git;
  if (git === undefined) return '';
  const result = 'backup' in plan ? plan : undefined;
  const moved = result?.branchMoved === true;
  const lines = [branchLine(git, moved || (result === undefined && moveBranch && git.movable))];
  if (result?.branchError !== undefined) lines.push(`The branch was not moved: ${result.branchError}`);
  else if (!git.movable && git.reason !== undefined) lines.push(`The branch is not moved with a rewind: ${git.reason}`);
  else if (!moved && !moveBranch) lines.push(`Add --move-branch to move ${git.branch ?? 'it'} ${git.direction === 'forward' ? 'forward' : 'back'} too.`);
  if (git.total > 1) for (const c of git.commits) lines.push(`  ${c.id} ${c.subject}`);
  if (git.total > git.commits.length) lines.push(`  … and ${git.total - git.commits.length} more`);
  return lines.map((l) => `${l}\n`).join('');
}

/** One line per change, then what was (or would be) left alone and why. */
export function planLines(plan: RewindPlan, mode: 'did' | 'would'): string {
  const i = mode === 'did' ? 0 : 1;
  const lines: string[] = [];
  for (const f of plan.files) lines.push(`  ${FILE_VERBS[f.change][i].padEnd(13)}${f.path}`);
  for (const m of plan.memory) lines.push(`  ${MEMORY_VERBS[m.action][i].padEnd(13)}${displayOf(m.rel)}`);
  if (plan.notRestored.length > 0) {
    lines.push(`Not restored, over the checkpoint size limit then or now (left as they are): ${plan.notRestored.map((f) => `${f.path} (${formatSize(f.size)})`).join(', ')}`);
  }
  if (plan.leftIgnored.length > 0) lines.push(`Not brought back, ignored by .gitignore now: ${plan.leftIgnored.join(', ')}`);
  return lines.map((l) => `${l}\n`).join('');
}

function parseListArgs(argv: string[]) {
  const { values } = parseOptions(argv, {
    workspace: { type: 'string', short: 'w' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  return { help: values.help === true, workspace: values.workspace, json: values.json === true };
}

function parseRewindArgs(argv: string[]) {
  const { values, positionals } = parseOptions(
    argv,
    {
      workspace: { type: 'string', short: 'w' },
      'dry-run': { type: 'boolean' },
      'move-branch': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  const help = values.help === true;
  if (!help && positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'the checkpoint ID is missing' : `one ID only, got ${positionals.length}`);
  return { help, workspace: values.workspace, dryRun: values['dry-run'] === true, moveBranch: values['move-branch'] === true, id: positionals[0] ?? '' };
}
