/**
 * The chat's session and tool factory: one AgentSession for the current key, settings and store,
 * and one set of workspace tools (one shell) per chat and folder. Moved out of ChatController.
 */
import { AgentSession } from '../../core/agent/session';
import type { AgentOptions } from '../../core/agent/options';
import type { ToolApprover } from '../../core/agent/tools';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { WorkspaceTools } from '../../platform/workspaceTools';
import type { ChatAuthor } from './chatMemory';
import type { ChatEnvironment, ChatFolder, ChatStore } from './chatPort';

export interface ChatSessionsHooks {
  /** Who makes the session's memory calls (ChatPersistence.author). */
  author(): ChatAuthor;
  /** Shows a notice in the conversation. */
  notice(text: string): void;
}

export class ChatSessions {
  /** `leftFolder`: the chat switched folders since; this conversation is not continued. */
  private session: { key: string; folder: string; agent: AgentSession; leftFolder?: boolean } | undefined;
  /** The workspace tools of the current session's folder; a new chat or folder gets new ones (a fresh shell). */
  private tools: { folder: string; set: WorkspaceTools } | undefined;
  /** History to continue with, from a reopened conversation. */
  private restoredHistory: BetaMessageParam[] | undefined;

  constructor(
    private readonly env: ChatEnvironment,
    private readonly approver: ToolApprover,
    private readonly hooks: ChatSessionsHooks,
  ) {}

  /** The conversation Claude would continue: the session's, else a reopened chat's (empty: none). */
  get history(): readonly BetaMessageParam[] {
    return this.session?.agent.history ?? this.restoredHistory ?? [];
  }

  /** The folder (a Uri string) of the current session; undefined before the first message. */
  get folder(): string | undefined {
    return this.session?.folder;
  }

  /** Makes `history` (a reopened chat's) the next session's; undefined: start afresh. */
  restore(history: BetaMessageParam[] | undefined): void {
    this.restoredHistory = history;
  }

  /** Switching away ends the conversation, even if the chat comes back to this folder later. */
  leaveFolder(): void {
    if (this.session) this.session.leftFolder = true;
  }

  /** "Allow sandboxed commands in this chat": the current tools run later commands without asking. */
  allowSandboxedCommands(): void {
    this.tools?.set.allowSandboxedCommands();
  }

  /**
   * The session for the current key, settings and store. A change of any of them needs a new
   * SDK client. With the same folder the conversation carries over to it; a new folder means
   * another memory, so the conversation starts afresh and the transcript says so rather than
   * pretending Claude still remembers it.
   */
  async sessionFor(store: ChatStore): Promise<AgentSession> {
    const settings = this.env.settings();
    const tools = this.toolsFor(store.folder);
    const options: AgentOptions = {
      apiKey: await this.env.apiKey(),
      baseURL: settings.apiBaseUrl,
      model: settings.model,
      maxTokens: settings.maxTokens,
      maxTurns: settings.maxTurns,
      memory: store.memory(() => this.hooks.author()),
      promptCaching: settings.promptCaching,
      contextEditing: settings.contextEditing,
      compaction: settings.compaction,
      compactionTrigger: settings.compactionTrigger,
      compactionSaveThreshold: settings.compactionSavePercent / 100,
      compactionInstructions: settings.compaction ? await this.env.compactionInstructions?.() : undefined,
      readMemoryFile: store.readFile ? (name) => store.readFile!(name) : undefined,
      tools: tools?.tools,
      system: tools?.systemPrompt,
      logger: this.env.log,
    };
    const key = JSON.stringify([
      options.compaction,
      options.compactionTrigger,
      options.compactionSaveThreshold,
      options.compactionInstructions ?? '',
      tools ? this.tools?.folder : '',
      options.apiKey ?? '',
      options.baseURL ?? '',
      options.model,
      options.maxTokens,
      options.maxTurns,
      options.promptCaching,
      options.contextEditing,
      store.folder.uri.toString(),
    ]);
    if (this.session?.key === key) return this.session.agent;
    const previous = this.session;
    const folder = store.folder.uri.toString();
    const continues = previous !== undefined && !previous.leftFolder && previous.folder === folder && previous.agent.history.length > 0;
    const history = continues ? previous.agent.history : this.restoredHistory;
    this.restoredHistory = undefined;
    this.session = { key, folder, agent: new AgentSession({ ...options, history: history ? [...history] : undefined }) };
    if (continues) {
      this.hooks.notice('The API key or settings changed: the conversation continues with them.');
    } else if (previous && previous.agent.history.length > 0) {
      this.hooks.notice(`The chat now works in the memory of "${store.folder.name}": Claude starts this message without the earlier conversation.`);
    }
    return this.session.agent;
  }

  /** The folder's tool set, made on first use after a new chat or a folder switch. */
  private toolsFor(folder: ChatFolder): WorkspaceTools | undefined {
    if (!this.env.workspaceTools) return undefined;
    const key = folder.uri.toString();
    if (this.tools?.folder !== key) {
      this.disposeTools();
      this.tools = { folder: key, set: this.env.workspaceTools(folder, this.approver) };
    }
    return this.tools.set;
  }

  disposeTools(): void {
    this.tools?.set.dispose();
    this.tools = undefined;
  }

  /** Drops the conversation's session (Claude forgets it) and its shell (the tools start one on their next command). */
  forget(): void {
    this.session?.agent.reset();
    this.session = undefined;
    this.restoredHistory = undefined;
    this.disposeTools();
  }
}
