/**
 * The chat webview's message protocol, shared by the extension (src/features/chat) and the webview
 * script (media/src). Pure TypeScript: no `vscode`, no DOM, so both tsconfigs compile it.
 *
 * Handshake: the webview posts `ready` first; the extension posts nothing before it and answers
 * with a full `snapshot`. After that it posts small patches (`entry`, `text`, `remove`, `status`).
 * The checks of both directions and the limits of what the webview may send are in protocolCheck.ts,
 * re-exported here.
 */
import type { ChangeSummaryView, SummaryRowKind } from './changeSummary';

/** Token counts of one model request (same fields as the API's usage). */
export interface TokenUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
}

/** What a button under an error (or on the key prompt) can do. */
export type ErrorAction = 'setApiKey' | 'getApiKey' | 'retry' | 'openSettings';

/** Whether Claude can be reached: no key, one in secret storage, or ANTHROPIC_API_KEY. */
export type KeyState = 'missing' | 'stored' | 'environment';

/** What a memory write changed, for its card (from the tool call's input). */
export type ToolChange =
  | { type: 'create'; text: string }
  | { type: 'str_replace'; old: string; new: string }
  | { type: 'insert'; line: number; text: string }
  | { type: 'rename'; from: string; to: string };

export type ApprovalState = 'pending' | 'once' | 'always' | 'deny';

/**
 * A card's question and its answer. `reason`: what the user said with Deny (Reject), shown on the
 * answered card ("Denied: …") as Claude got it.
 */
export type ToolApproval = (
  /**
   * `prefixes`: the rules "Always allow" offers; `stillAsks`: what those rules cannot cover (the
   * command asks again); `unsandboxed`: the command would run without the OS sandbox, and why.
   */
  | { kind: 'command'; command: string; prefixes: string[]; state: ApprovalState; sandboxed?: true; stillAsks?: string; unsandboxed?: CardUnsandboxed }
  /** `protected`: why the file is a protected place (code runs there); the card says it. */
  | { kind: 'edit'; path: string; added: number; removed: number; state: ApprovalState; protected?: string }
  /** A host question of a chat saved before questions moved to ToolNetwork (shown as it was answered). */
  | { kind: 'network'; host: string; state: ApprovalState }
) & {
  /** Refused without an answer (Stop, New Chat, the window closed while it waited): nobody denied it. */
  unanswered?: true;
  reason?: string;
};

/** Why a command runs without the OS sandbox: the setting (`off`), or it cannot run here (`why`; `help`: how to install it). */
export type CardUnsandboxed = { mode: 'off' } | { mode: 'unavailable'; why: string; help?: string };

/**
 * A running sandboxed command's request for a host nobody allowed, on the command's card below
 * its own approval line. `blocked`: the command ended (or was stopped) before the user answered,
 * so the request was refused without anyone's answer; `offer`: the card offers (once per host in
 * a chat) to add the host to sandbox.allowedDomains, `added` once the user did.
 */
export interface ToolNetwork {
  host: string;
  port?: number;
  state: ApprovalState | 'blocked';
  /** The command's program (`npm`), when it has one part. */
  program?: string;
  offer?: true;
  added?: true;
}

/** `host:port` of a host request, as its card shows it and its buttons name it. */
export function networkLabel(ask: { host: string; port?: number }): string {
  return ask.port === undefined ? ask.host : `${ask.host}:${ask.port}`;
}

/** A workspace edit on a card: its folder-relative path and size. `undone`: Undo restored the file. */
export interface ToolEdit {
  path: string;
  added: number;
  removed: number;
  undone?: boolean;
}

/**
 * How a finished command ended (its card's header): the exit code, or why it ended early. A
 * non-zero code, a timeout, a stop or a kill is a failure, shown as one.
 */
export interface CommandExit {
  /** Undefined when the process had none (killed by a signal, or ended early). */
  code?: number;
  ended?: 'timeout' | 'cancelled' | 'restart';
}

/**
 * A workspace file on an editor card (view, create, str_replace, insert): its folder-relative
 * path, so the card shows the name first and links to it. `range`: a view's view_range (1-based,
 * -1 = the end); `lines`: the file's line count when it was read; `line`: the first line an
 * insert wrote; `directory`: a view of a folder.
 */
export interface ToolFile {
  path: string;
  range?: [number, number];
  lines?: number;
  line?: number;
  directory?: boolean;
}

/** Longest live output a card keeps (the end of it). */
export const MAX_CARD_OUTPUT_CHARS = 16_000;

/** A file or selection that travels with the next message (a removable chip in the input). */
export interface ChatAttachment {
  id: string;
  /** The chip's text: a file name, `name:12-20` for a selection, or a `/memories` path. */
  label: string;
  /** Shown on hover: the path relative to its folder. */
  detail: string;
  /** The active editor's file or selection: implicit, it follows the editor (a toggle, not removed). */
  current?: boolean;
  /** The implicit chip turned off: shown, not sent. */
  off?: true;
}

/** What the button on the "chat is off" banner does. */
export type DisabledAction = 'manageTrust' | 'openFolder';

export type ToolStatus = 'running' | 'ok' | 'error';

/**
 * What a rewind leaves on rows: `rewound` rows (the message rewound to and every row after it,
 * when the conversation was rewound) are kept, folded and marked; the message's own row says
 * what the rewind did (`rewoundHere`) and how to undo it (`rewindUndo`).
 */
export interface RewindMarks {
  rewound?: true;
}

/**
 * What the Undo of a rewind on its message does: rewind the files and memory to checkpoint
 * `backup` (the state just before the rewind; absent when only the conversation was rewound),
 * with the branch (`branch`: the rewind moved it), and unfold the rows (`conversation`). Offered
 * until the next message is sent.
 */
export interface RewindUndo {
  backup?: number;
  branch?: true;
  conversation?: true;
}

/** One row of the conversation. Every string is display text; the webview never trusts it as HTML. */
export type ChatEntry = RewindMarks & (
  /**
   * `label`: a built-in prompt (Resume, Initialize's draft) shown as a compact chip with the text
   * collapsed. `attachments`: the chips that travelled with the message.
   */
  | {
      kind: 'user';
      id: string;
      text: string;
      label?: string;
      attachments?: string[];
      /** The checkpoint taken before this message (its "Rewind to here"). */
      checkpoint?: number;
      /** This message was rewound to: what the rewind changed, one line. */
      rewoundHere?: string;
      /** The rewind to this message can still be undone (its "Undo Rewind"). */
      rewindUndo?: RewindUndo;
    }
  /**
   * Markdown as the model wrote it; the webview renders and sanitizes it. `continued`: a later
   * text of the same answer (after a card), shown without a second "Claude" header.
   */
  | { kind: 'assistant'; id: string; markdown: string; streaming: boolean; continued?: boolean; followUps?: FollowUps }
  /**
   * One tool call. `tool`: memory (absent), str_replace_based_edit_tool or bash. `path` is a
   * `/memories/...` path for memory calls. `change`: what a memory write changed.
   */
  | {
      kind: 'tool';
      id: string;
      tool?: string;
      command: string;
      path?: string;
      status: ToolStatus;
      summary?: string;
      change?: ToolChange;
      /** A question on the card (a command to allow, an edit to accept) and its answer. */
      approval?: ToolApproval;
      /** A running command's requests for hosts (sandboxed): each a question, its answer, or "blocked". */
      network?: ToolNetwork[];
      /** The command ran (or would run) without the OS sandbox: the card's head says so. */
      unsandboxed?: true;
      /** A command's live output (its end; the card scrolls). */
      output?: string;
      /**
       * The output of an old card, folded out of what the view is sent (a long chat stays light):
       * its line count. The extension keeps the output (and Chat History on disk); the card's
       * Show Output asks for it (`unfoldOutput`).
       */
      foldedOutput?: number;
      /** A workspace file Claude changed: Open Diff and Undo act on it. */
      edit?: ToolEdit;
      /** The history version a memory write was recorded as: the card's History link shows it in the Memory Changes feed. */
      version?: number;
      /** A memory write the user undid (the change summary's Undo of its file): the card says so. */
      undone?: true;
      /** A finished bash command: how it ended. */
      exit?: CommandExit;
      /** A workspace editor call whose path is in the folder: the card's link opens it (`openFile`). */
      file?: ToolFile;
    }
  /**
   * Token counts of one answer (all its model requests), with the estimated cost in USD when the
   * model's price is known (core/agent/pricing.ts).
   */
  /**
   * One answer's usage line. `compaction`: the part of `usage` (and `compactionCostUsd` of
   * `costUsd`) that went to server-side compaction, for the line's hover.
   */
  | { kind: 'usage'; id: string; usage: TokenUsage; requests: number; model: string; costUsd?: number; compaction?: TokenUsage; compactionCostUsd?: number }
  /** A quiet line: stopped, retrying, context cleared. `action`: a button on it; `followUps`: buttons under it. */
  | { kind: 'notice'; id: string; text: string; action?: NoticeAction; followUps?: FollowUps }
  /**
   * What Claude loaded from memory while answering a conversation's first message: the sentence
   * ("Read 3 memory files: progress.md, …") and every `/memories/...` path, listed on expanding it.
   */
  | { kind: 'reads'; id: string; text: string; paths: string[] }
  | { kind: 'error'; id: string; message: string; actions: ErrorAction[] }
);

export type ChatEntryKind = ChatEntry['kind'];

/** What a button on a notice does. */
export type NoticeAction = 'reopenPrevious';

/** What a follow-up button does: open the folder's features.json, or run Resume Session in it. */
export type FollowUpAction = 'reviewFeatures' | 'resume';

/**
 * Buttons that lead on from a message (Initialize's draft ends with "Review features.json" and
 * "Resume Session" on its last message). `folder`: the name of the workspace folder they act in
 * (display text; the extension finds the folder by it, never takes a path from the webview).
 */
export interface FollowUps {
  folder: string;
  actions: FollowUpAction[];
}

/** Everything that is not a conversation row. */
export interface ChatStatus {
  running: boolean;
  /** Why the input is disabled (untrusted workspace, no folder), or undefined when it is usable. */
  disabledReason?: string;
  /** The way out of the disabled state, offered as a button next to the reason. */
  disabledAction?: DisabledAction;
  /** Sum of every request's usage since the last "New chat". */
  totals: TokenUsage;
  /** Model requests since the last "New chat". */
  requests: number;
  /** Estimated cost of the conversation in USD, when every answer's model price was known. */
  costUsd?: number;
  /** What the running answer is doing when nothing else shows it ("Waiting for Claude…", a retry). */
  working?: string;
  /** Undefined until the extension has looked. */
  key?: KeyState;
  /** The API rejected the key (401) on the last request; cleared when the key changes or a request succeeds. */
  keyRejected?: boolean;
  /** A message that waits for an API key: it is sent once a key is set. */
  pendingKey?: boolean;
  /** Another chat of this workspace's Chat History can be reopened (the empty chat offers it). */
  hasPrevious?: boolean;
  /** Chips that go with the next message. */
  attachments?: ChatAttachment[];
  /** What the empty chat says it works with, and whether Resume Session has work to pick up. */
  starter?: ChatStarter;
  /** Messages sent while an answer was running: each goes out when the one before it is over. */
  queued?: QueuedMessage[];
}

/** The empty chat's line and starter actions: the folder, the model, Resume when it has work. */
export interface ChatStarter {
  folder: string;
  model: string;
  /** The folder's checklist has a feature that does not pass yet. */
  canResume: boolean;
}

/** A starter action of the empty chat. */
export type StarterAction = 'initialize' | 'resume' | 'addFile';

/** A message waiting for its turn. */
export interface QueuedMessage {
  id: string;
  text: string;
}

export interface ChatSnapshot {
  entries: ChatEntry[];
  status: ChatStatus;
  /** The change summary above the composer (shared/changeSummary.ts); undefined: nothing to show. */
  changes?: ChangeSummaryView;
}

/** A change summary row's buttons, and Keep All / Undo All (`path` absent). */
export type SummaryAction = 'keep' | 'undo' | 'diff';

export type ExtensionToWebview =
  /** The whole conversation: the answer to `ready`, and after "New chat". */
  | { type: 'snapshot'; snapshot: ChatSnapshot }
  /** Adds the entry, or replaces the entry with the same id. */
  | { type: 'entry'; entry: ChatEntry }
  /** Appends streamed text to an assistant entry. */
  | { type: 'text'; id: string; text: string }
  /** Appends live output to a tool card. */
  | { type: 'output'; id: string; text: string }
  | { type: 'remove'; id: string }
  | { type: 'status'; status: ChatStatus }
  /** Puts the keyboard focus in the input (after "Ask Claude…" revealed the view). */
  | { type: 'focusInput' }
  /**
   * Text back into the input, with why: queued messages that will not be sent (their conversation
   * was replaced), or the message a rewind went back to. `ask`: only into an empty input; over a
   * draft the note offers to put it back instead of merging. Empty `text`: only the note.
   * `withdraw`: the text a rewind put back, taken out again if the input still holds just that
   * (its rewind was undone).
   */
  | { type: 'draft'; text: string; reason: string; ask?: true; withdraw?: string }
  /** The change summary changed (undefined: nothing to show). */
  | { type: 'changes'; changes?: ChangeSummaryView };

export type WebviewToExtension =
  | { type: 'ready' }
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'retry' }
  /**
   * Opens a tool card's memory file in an editor; `path` is a `/memories/...` path. `entryId` is
   * the card's id: the extension opens the path in the folder the card's tool call ran in.
   */
  | { type: 'openMemory'; entryId: string; path: string }
  | { type: 'setApiKey' }
  | { type: 'getApiKey' }
  | { type: 'openSettings' }
  | { type: 'manageTrust' }
  | { type: 'openFolder' }
  | { type: 'reopenPrevious' }
  | { type: 'removeAttachment'; id: string }
  /** The implicit current-file chip's toggle: on (sent with the message) or off. */
  | { type: 'toggleAttachment'; id: string }
  /** A code block's toolbar: copy it, insert it at the editor's cursor, or open it as a new file. */
  | { type: 'code'; action: CodeAction; code: string; language?: string }
  /**
   * A card's approval buttons. `rule`: the one "Always allow" rule chosen (absent with `always`:
   * every rule the card offered); `host`: the host question answered (networkLabel).
   */
  | { type: 'approve'; entryId: string; decision: 'once' | 'always' | 'deny' | 'sandboxed'; rule?: string; reason?: string; host?: string }
  /** The approval card's "Manage Command Rules" link. */
  | { type: 'manageRules' }
  /** An unsandboxed command's "Turn the sandbox on (claudeMemory.sandbox)": opens that setting. */
  | { type: 'sandboxSetting' }
  /** A blocked host's offer (`host`: networkLabel): add it to the user's sandbox.allowedDomains. */
  | { type: 'allowHost'; entryId: string; host: string }
  /** An edit card's Open Diff (also for an edit waiting for Accept) and Undo. */
  | { type: 'openDiff'; entryId: string }
  | { type: 'undoEdit'; entryId: string }
  /** "Rewind to here" on a user message: preview, confirm, then rewind files and memory to its checkpoint. */
  | { type: 'rewind'; entryId: string }
  /** "Undo Rewind" on a rewound message: back to how things were just before that rewind. */
  | { type: 'undoRewind'; entryId: string }
  /** A memory write card's History link: its version in the Memory Changes feed, with the diff. */
  | { type: 'showChange'; entryId: string }
  /** A folded card's Show Output: the extension sends the card again with its output. */
  | { type: 'unfoldOutput'; entryId: string }
  /** A workspace file card's link: opens the card's file (at the lines it read). */
  | { type: 'openFile'; entryId: string }
  /** A starter action of the empty chat: Initialize, Resume Session, Add File. */
  | { type: 'starter'; action: StarterAction }
  /** A change summary row's Open Diff, Keep or Undo. */
  | { type: 'summary'; action: SummaryAction; kind: SummaryRowKind; path: string }
  /** The change summary's Keep All / Undo All. */
  | { type: 'summaryAll'; action: 'keep' | 'undo' }
  /** A follow-up button under message `entryId` (the extension acts in the folder that message names). */
  | { type: 'followUp'; entryId: string; action: FollowUpAction };

export type CodeAction = 'copy' | 'insert' | 'newFile';

export function emptyTokenUsage(): TokenUsage {
  return { input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 0 };
}

export {
  MAX_PROMPT_CHARS,
  MAX_PATH_CHARS,
  MAX_CODE_CHARS,
  MAX_LANGUAGE_CHARS,
  MAX_ENTRY_ID_CHARS,
  MAX_RULE_CHARS,
  MAX_REASON_CHARS,
  parseWebviewMessage,
  isMemoryPath,
  isEntryId,
  parseExtensionMessage,
  isEntry,
  isFollowUps,
  FOLLOW_UP_ACTIONS,
} from './protocolCheck';
