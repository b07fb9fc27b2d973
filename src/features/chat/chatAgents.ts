/**
 * The chat's agent and tool factory: one AgentLoop for the current key, settings and store,
 * and one set of workspace tools (one shell) per chat and folder. Moved out of ChatController.
 */
import { AgentLoop } from '../../core/agent/agentLoop';
import type { AgentOptions } from '../../core/agent/options';
import type { ToolApprover } from '../../core/agent/tools';
import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { WorkspaceTools } from '../../platform/workspaceTools';
import type { ChatAuthor } from './chatMemory';
import type { ChatEnvironment, ChatFolder, ChatStore } from './chatPort';

export interface ChatAgentsHooks {
  /** Who makes the agent's memory calls (ChatPersistence.author). */
  author(): ChatAuthor;
  /** Shows a notice in the conversation. */
  notice(text: string): void;
}

export class ChatAgents {
  /** `leftFolder`: the chat switched folders since; this conversation is not continued. */
  private current: { key: string; folder: string; agent: AgentLoop; leftFolder?: boolean } | undefined;
  /** The workspace tools of the current agent's folder; a new chat or folder gets new ones (a fresh shell). */
  private tools: { folder: string; set: WorkspaceTools } | undefined;
  /** The conversation to continue, from a reopened conversation. */
  private restoredConversation: BetaMessageParam[] | undefined;

  constructor(
    private readonly env: ChatEnvironment,
    private readonly approver: ToolApprover,
    private readonly hooks: ChatAgentsHooks,
  ) {}

  /** The conversation Claude would continue: the agent's, else a reopened chat's (empty: none). */
  get conversation(): readonly BetaMessageParam[] {
    return this.current?.agent.conversation ?? this.restoredConversation ?? [];
  }

  /** The folder (a Uri string) of the current agent; undefined before the first message. */
  get folder(): string | undefined {
    return this.current?.folder;
  }

  /** Makes `conversation` (a reopened chat's) the next agent's; undefined: start afresh. */
  restore(conversation: BetaMessageParam[] | undefined): void {
    this.restoredConversation = conversation;
  }

  /** Switching away ends the conversation, even if the chat comes back to this folder later. */
  leaveFolder(): void {
    if (this.current) this.current.leftFolder = true;
  }

  /** "Allow sandboxed commands in this chat": the current tools run later commands without asking. */
  allowSandboxedCommands(): void {
    this.tools?.set.allowSandboxedCommands();
  }

  /** Whether this chat's "Allow sandboxed commands" grant is on. */
  sandboxedCommandsAllowed(): boolean {
    return this.tools?.set.sandboxedCommandsAllowed() ?? false;
  }

  /** Takes this chat's grant back. */
  revokeSandboxedCommands(): void {
    this.tools?.set.revokeSandboxedCommands();
  }

  /**
   * The agent for the current key, settings and store. A change of any of them needs a new
   * SDK client. With the same folder the conversation carries over to it; a new folder means
   * another memory, so the conversation starts afresh and the transcript says so rather than
   * pretending Claude still remembers it.
   */
  async agentFor(store: ChatStore): Promise<AgentLoop> {
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
    if (this.current?.key === key) return this.current.agent;
    const previous = this.current;
    const folder = store.folder.uri.toString();
    const continues = previous !== undefined && !previous.leftFolder && previous.folder === folder && previous.agent.conversation.length > 0;
    const conversation = continues ? previous.agent.conversation : this.restoredConversation;
    this.restoredConversation = undefined;
    this.current = { key, folder, agent: new AgentLoop({ ...options, conversation: conversation ? [...conversation] : undefined }) };
    if (continues) {
      this.hooks.notice('The API key or settings changed: the conversation continues with them.');
    } else if (previous && previous.agent.conversation.length > 0) {
      this.hooks.notice(`The chat now works in the memory of "${store.folder.name}": Claude starts this message without the earlier conversation.`);
    }
    return this.current.agent;
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

  /** Drops the conversation's agent (Claude forgets it) and its shell (the tools start one on their next command). */
  forget(): void {
    this.current?.agent.reset();
    this.current = undefined;
    this.restoredConversation = undefined;
    this.disposeTools();
  }
}
