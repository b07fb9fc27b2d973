/**
 * What the send runner (chatSendRunner.ts) is given and gives back: its options and results,
 * a queued message, and the hooks it works through.
 */
import type { AgentLoop } from '../../core/agent/agentLoop';
import type { AgentEvent, AgentOutcome } from '../../core/agent/events';
import type { ChatAttachments } from './chatAttachments';
import type { ChatPatch, ChatTranscript, PromptView } from './chatTranscript';
import type { ChatFolder, ChatStore, EditLedger } from './chatPort';
import type { ToolEntryFolders } from './toolEntryFolders';
import type { ChatProgress } from './chatProgress';

/** How a prompt is sent: as a chip (built-in prompts), and whether it starts a fresh conversation. */
export interface SendOptions {
  label?: string;
  fresh?: boolean;
  /** A Resume session: Claude is reminded once to append its progress.md entry before it stops. */
  resume?: boolean;
}

export type ChatSendResult =
  /** `pending`: the message is shown and waits for an API key; it is sent once one is set. */
  | { started: false; reason: string; pending?: boolean }
  | { started: true; outcome: AgentOutcome };

/** A message waiting for its turn (SendQueue); `cancelled` says why it will not be sent. */
export interface QueuedSend {
  id: string;
  text: string;
  view: PromptView;
  attachments: ReturnType<ChatAttachments['take']>;
  cancelled?: string;
}

// After a failure with at least one complete model turn the prompt is already in the session's
// history, so Retry must not send it again: it asks Claude to go on instead.
export const CONTINUE_PROMPT = 'Please continue where you left off.';

export interface ChatSendRunnerHooks {
  readonly transcript: ChatTranscript;
  readonly attachments: ChatAttachments;
  readonly edits: EditLedger;
  readonly toolFolders: ToolEntryFolders<ChatFolder>;
  readonly progress: ChatProgress;
  emit(patches: ChatPatch[]): void;
  /** Resolves once the last conversation is restored after start-up, and once a New Chat, reopen or delete under way is over. */
  restored(): Promise<void>;
  switching(): Promise<unknown>;
  /** Why the chat cannot send now (ChatFolders.disabled). */
  disabled(): { reason: string } | undefined;
  currentStore(): ChatStore | undefined;
  agentFor(store: ChatStore): Promise<AgentLoop>;
  /** What Claude has not been told about yet: a rewind, undone edits and summary rows (ChatRewinds.takeNote). */
  takeNote(): string | undefined;
  /** The checkpoint before the message just shown; `label`: a built-in prompt's chip (what it is named by). */
  recordCheckpoint(folder: ChatFolder, text: string, label?: string): Promise<void>;
  /** A message is sent (ChatPersistence.countTurn). */
  countTurn(store: ChatStore, title: string): void;
  /** The send is over (completed, stopped or failed): the chat is saved; resolves once it is. */
  answerSaved(): Promise<void>;
  /** An answer starts or ends, and a tool call in it ended: for the change summary. */
  running(on: boolean): void;
  toolEnded(event: Extract<AgentEvent, { type: 'tool_end' }>): void;
  /** Sets the current conversation aside (`SendOptions.fresh`). */
  newChat(): Promise<void>;
}
