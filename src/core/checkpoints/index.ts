/** Checkpoints of a workspace folder and its memory, and rewinding to them (no vscode, no fs). */
export { CheckpointStore, BranchNotMovableError, UnknownCheckpointError, DEFAULT_CHECKPOINT_MAX_FILE_BYTES, type CheckpointInfo, type CheckpointKind, type CheckpointStoreOptions, type RewindOptions, type RewindResult, type WorkTreeProbe } from './checkpointStore';
export { branchLine, commitCount, planBranch, type BranchPlan } from './branchPlan';
export { WorkspaceGit, branchName, MAX_LISTED_COMMITS, type CommitLine, type WorkspaceHead, type WorkspaceState } from './workspaceGit';
export { CheckpointMemory, planMemoryRewind, type CheckpointMemoryEngine, type MemoryStep } from './memoryRewind';
export { Git, GitError, CHECKPOINT_ATTRIBUTES, type GitCall, type GitResult, type GitRunner, type CheckpointRepository } from './git';
export { parseNameStatus, mergeSkipped, planSummary, type FileChange, type RewindPlan, type SkippedFile } from './rewindPlan';
export { rewindNote, type RewindScope } from './messages';
export { addLineCounts, parseRaw, type FileDelta } from './fileDeltas';
