/**
 * Builds the chat's parts and wires them to each other (ChatController holds them): each part
 * gets the port (ChatEnvironment) and the few calls it needs of the others.
 */
import type { ChatAttachments } from './chatAttachments';
import { ChangeSummary, type ChangeSummaryPort } from './changeSummary';
import { ChatApprovals } from './chatApprovals';
import { ChatConversations } from './chatConversations';
import { ChatFolders } from './chatFolders';
import { ChatPersistence } from './chatPersistence';
import type { ChatEnvironment, EditLedger } from './chatPort';
import { ChatProgress } from './chatProgress';
import { ChatRewinds } from './chatRewinds';
import { ChatSendRunner } from './chatSendRunner';
import { routineTitle } from './chatTitles';
import { ChatAgents } from './chatAgents';
import type { ChatPatch, ChatTranscript } from './chatTranscript';

/** What the controller itself owns and gives every part. */
export interface ChatBase {
  readonly transcript: ChatTranscript;
  readonly attachments: ChatAttachments;
  readonly edits: EditLedger;
  emit(patches: ChatPatch[]): void;
  /** The controller's New Chat (a `fresh` send sets the current conversation aside). */
  newChat(): Promise<void>;
}

export interface ChatParts {
  readonly runner: ChatSendRunner;
  readonly agents: ChatAgents;
  readonly approvals: ChatApprovals;
  readonly persistence: ChatPersistence;
  readonly folders: ChatFolders;
  readonly rewinds: ChatRewinds;
  readonly conversations: ChatConversations;
  readonly progress: ChatProgress;
  /** "What changed, at a glance" above the composer (changeSummary.ts). */
  readonly changes: ChangeSummary;
  /** Stops a running answer, refuses open questions and waits until the send is over. */
  settle(): Promise<void>;
  /** Drops everything that belongs to the conversation on screen (its rows stay until replaced). */
  forgetConversation(): void;
}

export function createChatParts(env: ChatEnvironment, base: ChatBase): ChatParts {
  const { transcript, edits, emit } = base;
  const progress = new ChatProgress(env);
  const folders = new ChatFolders(env, {
    transcript,
    emit,
    isRunning: () => runner.isRunning,
    leftFolder: () => {
      agents.leaveFolder();
      runner.dropRetry();
    },
  });
  const persistence: ChatPersistence = new ChatPersistence(env, {
    transcript,
    emit,
    isRunning: () => runner.isRunning,
    conversation: () => agents.conversation,
    conversationFolder: () => agents.folder,
    summaryState: () => changes.saved(),
  });
  const changes = new ChangeSummary(env.changeSummary ?? NO_SUMMARY_PORT, {
    onView: (view) => emit([{ type: 'changes', changes: view }]),
    onState: async (now) => (now ? persistence.saveNow() : persistence.scheduleSave()),
    messageCheckpoints: () => transcript.snapshot().entries.flatMap((e) => (e.kind === 'user' && e.checkpoint !== undefined ? [e.checkpoint] : [])),
    filesUndone: (paths, from) => emit(transcript.markFilesUndone(paths, from)),
    memoryUndone: (rels, from) => emit(transcript.markMemoryUndone(rels, from)),
  });
  const approvals = new ChatApprovals(env, {
    transcript,
    edits,
    emit,
    showProgress: (on) => progress.show(on),
    answering: () => runner.answering,
    runningFolder: () => runner.runningFolder,
    allowSandboxedCommands: () => agents.allowSandboxedCommands(),
  });
  const agents: ChatAgents = new ChatAgents(env, approvals.approver, { author: () => persistence.author(), notice: (text) => emit(transcript.notice(text)) });
  const rewinds = new ChatRewinds(env, {
    transcript,
    edits,
    emit,
    answering: () => runner.answering,
    idle: () => runner.whenIdle(),
    currentStore: () => folders.currentStore(),
    chatId: () => persistence.chatId,
    saveNow: () => persistence.saveNow(),
    changes,
  });
  const runner: ChatSendRunner = new ChatSendRunner(env, {
    transcript,
    attachments: base.attachments,
    edits,
    toolFolders: folders.toolFolders,
    progress,
    emit,
    restored: () => conversations.restored,
    switching: () => conversations.whenSwitched(),
    disabled: () => folders.disabled(),
    currentStore: () => folders.currentStore(),
    agentFor: (store) => agents.agentFor(store),
    takeNote: () => rewinds.takeNote(),
    recordCheckpoint: (folder, text, label) => rewinds.recordCheckpoint(folder, text, label),
    countTurn: (store, title) => persistence.countTurn(store, title),
    // The answer's last save (a routine's chat titled by what it did first); then the summary is
    // read once more (a reload right after keeps it).
    answerSaved: async () => {
      await retitleRoutine();
      await persistence.saveNow();
      void changes.refresh();
    },
    newChat: () => base.newChat(),
    running: (on) => changes.setRunning(on),
    // Reads change nothing; a failed command may have written files all the same.
    toolEnded: (event) => void (event.detail?.kind !== 'fileRead' && event.detail?.kind !== 'memoryRead' && changes.refresh()),
  });
  /** A chat begun by a built-in routine is called by what its session did (chatTitles.ts), once an answer ended. */
  const retitleRoutine = async (): Promise<void> => {
    const entries = transcript.snapshot().entries;
    const first = entries.find((e) => e.kind === 'user');
    const folder = folders.currentStore()?.folder.uri.toString();
    if (first?.kind !== 'user' || first.label === undefined || folder === undefined) return;
    const flips = first.checkpoint === undefined ? [] : await changes.featureFlipsSince(folder, first.checkpoint);
    // The routine's own answer: its last text before the user's next message (a reminder chip in it is not one).
    const start = entries.indexOf(first);
    const next = entries.findIndex((e, i) => i > start && e.kind === 'user' && e.label === undefined);
    const answer = entries.slice(start + 1, next < 0 ? undefined : next).filter((e) => e.kind === 'assistant').at(-1);
    const title = routineTitle(first.label, flips, answer?.kind === 'assistant' ? answer.markdown : undefined);
    if (title !== undefined) persistence.retitle(title);
  };
  const settle = async (): Promise<void> => {
    runner.stop();
    approvals.denyAll();
    await runner.settled();
  };
  const forgetConversation = (): void => {
    approvals.clear();
    edits.clear();
    // Claude forgets it, and another conversation gets a fresh shell.
    agents.forget();
    runner.forget();
    // A new conversation's Claude never saw those edits.
    rewinds.forgetUndoneEdits();
    folders.toolFolders.clear();
    persistence.forget();
    changes.reset();
  };
  const conversations = new ChatConversations(env, {
    transcript,
    persistence,
    folders,
    agents,
    emit,
    isRunning: () => runner.isRunning,
    settle,
    denyAll: () => approvals.denyAll(),
    forgetConversation,
    summaryRestored: (state) => void changes.restore(state),
  });
  return { runner, agents, approvals, persistence, folders, rewinds, conversations, progress, changes, settle, forgetConversation };
}

/** Without a port (tests' environments): no checkpoints, so no summary. */
const NO_SUMMARY_PORT: ChangeSummaryPort = {
  checkpoints: () => undefined,
  memory: () => undefined,
  confirm: async () => false,
  log: { info: () => undefined, warn: () => undefined },
};
