/**
 * A running answer in the transcript: the agent's events folded into rows (text, tool cards and
 * their questions, notices, errors, the "Read N memory files" note) and its usage line when it
 * ends. ChatTranscript (chatTranscript.ts) builds on it.
 */
import type { AgentEvent } from '../../core/agent/events';
import { memoryFileReadOf, memoryReadsNote } from '../../core/agent/memoryReads';
import { responseCost } from '../../core/agent/pricing';
import type { ApprovalRequest } from '../../core/agent/tools';
import { EDITOR_TOOL } from '../../core/workspace/messages';
import type { WorkspaceFolderInfo } from '../../core/workspace/paths';
import { readSummary } from './shared/cardText';
import { MAX_CARD_OUTPUT_CHARS, emptyTokenUsage, networkLabel, type ApprovalState, type ChatEntry, type TokenUsage, type ToolApproval, type ToolNetwork } from './shared/protocol';
import { changeOf, editOf, exitOf, fileOf, lineCounts, toolName } from './transcriptCards';
import { TranscriptRows, type ChatPatch } from './transcriptRows';
import { actionsFor, retryText, STOPPED_TEXT, WAITING_TEXT } from './transcriptWords';

export class TranscriptAnswer extends TranscriptRows {
  /** The running send's model and the usage of its requests so far (one usage line per answer). */
  protected model = '';
  protected sendUsage: TokenUsage = emptyTokenUsage();
  protected sendRequests = 0;
  /** The running send's estimated cost, request by request (undefined: a price was unknown). */
  protected sendCost: number | undefined = 0;
  /** Of the send's usage and cost, what went to server-side compaction. */
  protected sendCompaction: { usage: TokenUsage; costUsd: number | undefined } | undefined;
  /** Ids of assistant entries streamed in the current model response (voided by a `retry`). */
  protected turnTextIds: string[] = [];
  /** The first text of the running answer: the one with the "Claude" header (later ones continue it). */
  protected answerTextId: string | undefined;
  /** The assistant entry text deltas currently append to. */
  protected openTextId: string | undefined;
  /**
   * Memory files read during the conversation's first send, and the id of their note once it is
   * shown; undefined for later sends.
   */
  protected reads: { paths: string[]; id?: string } | undefined;
  /** The folder the running send's workspace tools work in: editor cards show paths relative to it. */
  protected folder: WorkspaceFolderInfo | undefined;

  /** The workspace folder of the sends that follow (editor cards name their files relative to it). */
  setWorkspaceFolder(folder: WorkspaceFolderInfo | undefined): void {
    this.folder = folder;
  }

  apply(event: AgentEvent): ChatPatch[] {
    const note = this.noteReads(event);
    const patches = this.fold(event);
    return note.before ? [...note.patches, ...patches] : [...patches, ...note.patches];
  }

  /**
   * The "Read N memory files" note of the first send: it appears once Claude moves on from its
   * first reads (text, another tool, the end), right before that, and counts later reads too.
   */
  protected noteReads(event: AgentEvent): { patches: ChatPatch[]; before: boolean } {
    const reads = this.reads;
    if (!reads) return { patches: [], before: false };
    const path = memoryFileReadOf(event);
    if (path !== undefined) {
      if (reads.paths.includes(path)) return { patches: [], before: false };
      reads.paths.push(path);
      return { patches: reads.id ? [this.upsert(this.readsEntry(reads.id, reads.paths))] : [], before: false };
    }
    const movesOn =
      (event.type === 'text' && event.text !== '') ||
      (event.type === 'tool_start' && ((event.tool ?? 'memory') !== 'memory' || event.command !== 'view')) ||
      event.type === 'done' ||
      event.type === 'error';
    if (!movesOn || reads.id || reads.paths.length === 0) return { patches: [], before: false };
    reads.id = this.id();
    return { patches: [this.add(this.readsEntry(reads.id, reads.paths))], before: true };
  }

  protected readsEntry(id: string, paths: readonly string[]): ChatEntry {
    return { kind: 'reads', id, text: memoryReadsNote(paths), paths: [...paths] };
  }

  protected fold(event: AgentEvent): ChatPatch[] {
    switch (event.type) {
      case 'text':
        return [...this.appendText(event.text), ...this.setWorking(undefined)];
      case 'tool_start': {
        this.openTextId = undefined;
        const file = fileOf(event.tool, event.path, undefined, this.folder);
        return [
          this.upsert({
            kind: 'tool',
            id: this.toolEntryId(event.id),
            ...toolName(event.tool),
            command: event.command,
            path: file?.path ?? event.path,
            status: 'running',
            ...(file ? { file } : {}),
          }),
          ...this.setWorking(undefined),
        ];
      }
      case 'tool_end': {
        this.openTextId = undefined;
        const change = changeOf(event.detail);
        const id = this.toolEntryId(event.id);
        const before = this.find(id);
        const kept =
          before?.kind === 'tool'
            ? { ...(before.approval ? { approval: before.approval } : {}), ...(before.output ? { output: before.output } : {}), ...(before.network ? { network: before.network } : {}) }
            : {};
        const unsandboxed = event.detail?.kind === 'command' && event.detail.unsandboxed ? { unsandboxed: true as const } : {};
        const edit = event.detail?.kind === 'edit' && !event.is_error ? editOf(event.detail.path, event.detail.before, event.detail.after) : undefined;
        const exit = exitOf(event.detail);
        const file = fileOf(event.tool, event.path, event.is_error ? undefined : event.detail, this.folder);
        // A command that ran but failed (exit 1, a timeout) is a failure on its card, though
        // Claude gets its output as an ordinary result.
        const failed = event.is_error || (exit !== undefined && (exit.ended !== undefined || exit.code !== 0));
        // A successful editor card does not repeat its path below the header: a read says which
        // lines it covered, an edit has its bar (size, Open Diff, Undo).
        const summary = file && !event.is_error && event.tool === EDITOR_TOOL.name ? (event.detail?.kind === 'fileRead' ? readSummary(file) : undefined) : event.summary;
        return [
          this.upsert({
            kind: 'tool',
            id,
            ...toolName(event.tool),
            command: event.command,
            path: file?.path ?? event.touched?.newPath ?? event.path,
            status: failed ? 'error' : 'ok',
            ...(summary !== undefined ? { summary } : {}),
            ...(change ? { change } : {}),
            ...kept,
            ...unsandboxed,
            ...(edit ? { edit } : {}),
            ...(exit ? { exit } : {}),
            ...(file ? { file } : {}),
            ...(event.touched?.version !== undefined && !event.is_error ? { version: event.touched.version } : {}),
          }),
          ...this.setWorking(WAITING_TEXT),
        ];
      }
      case 'usage':
        // A request went through: whatever key it used is accepted.
        this.keyRejected = false;
        this.sendRequests += 1;
        this.sendUsage = addUsage(this.sendUsage, event.usage);
        {
          // Priced per request (long-prompt tiers are per request), compaction as its own part.
          const cost = responseCost(this.model, event.usage, event.compaction);
          this.sendCost = cost === undefined || this.sendCost === undefined ? undefined : this.sendCost + cost.total;
          if (event.compaction) {
            const before = this.sendCompaction;
            this.sendCompaction = {
              usage: addUsage(before?.usage ?? emptyTokenUsage(), event.compaction),
              costUsd: cost === undefined || (before && before.costUsd === undefined) ? undefined : (before?.costUsd ?? 0) + cost.compaction,
            };
          }
        }
        this.openTextId = undefined;
        return [];
      case 'api_retry':
        return this.setWorking(retryText(event.reason, event.delayMs, event.attempt, event.maxRetries));
      case 'context_edit':
        return [
          this.add({
            kind: 'notice',
            id: this.id(),
            text: `Context editing cleared ${event.cleared_tool_uses} old tool result(s) (${event.cleared_input_tokens} input tokens).`,
          }),
        ];
      case 'compaction':
        return [...this.closeTurn(), this.add({ kind: 'notice', id: this.id(), text: event.line })];
      case 'memory_prompt':
        // A built-in request the loop sent to Claude: a compact chip, like Resume's routine. What
        // Claude says next answers it, under a header of its own.
        this.answerTextId = undefined;
        return [...this.closeTurn(), this.add({ kind: 'user', id: this.id(), text: event.text, label: event.label })];
      case 'retry':
        return [
          ...this.voidTurnText(),
          this.add({ kind: 'notice', id: this.id(), text: `Connection dropped; retrying (attempt ${event.attempt}).` }),
          ...this.setWorking(WAITING_TEXT),
        ];
      case 'turn_end':
        return [...this.closeTurn(), ...this.setWorking(WAITING_TEXT)];
      case 'error':
        if (event.kind === 'cancelled') return [...this.closeTurn(), this.add({ kind: 'notice', id: this.id(), text: STOPPED_TEXT })];
        return [
          ...this.closeTurn(),
          this.add({ kind: 'error', id: this.id(), message: event.message, actions: actionsFor(event.kind) }),
          ...(event.kind === 'auth' ? this.setKeyRejected(true) : []),
        ];
      case 'done':
        return this.finish();
      case 'tool_output':
        return this.appendOutput(event.id, event.text);
    }
  }

  /**
   * Puts an approval question (or its answer) on the card of `toolUseId`. A host request goes on
   * the card's list of hosts, below the command's own answer, which it never replaces; one nobody
   * answered is "blocked", not the user's denial (`outcome.withdrawn`).
   */
  setApproval(toolUseId: string, request: ApprovalRequest, state: ApprovalState, outcome: { reason?: string; withdrawn?: true; offer?: true } = {}): ChatPatch[] {
    const id = this.toolEntryId(toolUseId);
    const entry = this.find(id);
    if (entry?.kind !== 'tool') return [];
    if (request.kind === 'network') {
      const ask: ToolNetwork = {
        host: request.host,
        ...(request.port !== undefined ? { port: request.port } : {}),
        state: outcome.withdrawn ? 'blocked' : state,
        ...(request.program !== undefined ? { program: request.program } : {}),
        ...(outcome.offer ? { offer: true as const } : {}),
      };
      const label = networkLabel(ask);
      const network = [...(entry.network ?? []).filter((n) => networkLabel(n) !== label), ask];
      return [this.upsert({ ...entry, network }), ...(state === 'pending' ? this.setWorking(undefined) : [])];
    }
    const said = { ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}), ...(outcome.withdrawn ? { unanswered: true as const } : {}) };
    const approval: ToolApproval =
      request.kind === 'command'
        ? {
            kind: 'command',
            command: request.command,
            prefixes: [...request.prefixes],
            state,
            ...(request.sandboxed ? { sandboxed: true as const } : {}),
            ...(request.stillAsks !== undefined ? { stillAsks: request.stillAsks } : {}),
            ...(request.unsandboxed ? { unsandboxed: { ...request.unsandboxed } } : {}),
            ...said,
          }
        : { kind: 'edit', path: request.path, ...lineCounts(request.before, request.after), state, ...(request.protected ? { protected: request.protected } : {}), ...said };
    const unsandboxed = request.kind === 'command' && request.unsandboxed ? { unsandboxed: true as const } : {};
    // While a question waits, nothing else says Claude is waiting for the user.
    return [this.upsert({ ...entry, approval, ...unsandboxed }), ...this.setWorking(undefined)];
  }

  /** The bare host of a blocked request `label` (networkLabel) on card `entryId` that offers to allow it, if it does. */
  blockedHost(entryId: string, label: string): string | undefined {
    const entry = this.find(entryId);
    if (entry?.kind !== 'tool') return undefined;
    return entry.network?.find((n) => networkLabel(n) === label && n.state === 'blocked' && n.offer && !n.added)?.host;
  }

  /** The blocked request `label` on card `entryId` was added to the allowed domains: its line says so. */
  markHostAdded(entryId: string, label: string): ChatPatch[] {
    const entry = this.find(entryId);
    if (entry?.kind !== 'tool' || !entry.network) return [];
    return [this.upsert({ ...entry, network: entry.network.map((n) => (networkLabel(n) === label ? { ...n, added: true as const } : n)) })];
  }

  protected appendOutput(toolUseId: string, text: string): ChatPatch[] {
    const id = this.toolEntries.get(toolUseId);
    const entry = id ? this.find(id) : undefined;
    if (!id || entry?.kind !== 'tool' || text === '') return [];
    const output = `${entry.output ?? ''}${text}`;
    entry.output = output.length > MAX_CARD_OUTPUT_CHARS ? output.slice(-MAX_CARD_OUTPUT_CHARS) : output;
    return [{ type: 'output', id, text }];
  }

  /** The send is over: its one usage line (all its requests), the totals, not running. */
  protected finish(): ChatPatch[] {
    const patches = this.closeTurn();
    if (this.sendRequests > 0) {
      const cost = this.sendCost;
      this.requests += this.sendRequests;
      this.totals = addUsage(this.totals, this.sendUsage);
      this.costUsd = cost === undefined || this.costUsd === undefined ? undefined : this.costUsd + cost;
      patches.push(
        this.add({
          kind: 'usage',
          id: this.id(),
          usage: { ...this.sendUsage },
          requests: this.sendRequests,
          model: this.model,
          ...(cost !== undefined ? { costUsd: cost } : {}),
          ...(this.sendCompaction
            ? { compaction: { ...this.sendCompaction.usage }, ...(this.sendCompaction.costUsd !== undefined ? { compactionCostUsd: this.sendCompaction.costUsd } : {}) }
            : {}),
        }),
      );
    }
    this.sendUsage = emptyTokenUsage();
    this.sendRequests = 0;
    this.sendCost = 0;
    this.sendCompaction = undefined;
    this.running = false;
    this.working = undefined;
    patches.push(this.statusPatch());
    return patches;
  }

  protected appendText(text: string): ChatPatch[] {
    if (text === '') return [];
    const open = this.openTextId ? this.find(this.openTextId) : undefined;
    if (open && open.kind === 'assistant') {
      open.markdown += text;
      return [{ type: 'text', id: open.id, text }];
    }
    // One "Claude" header per answer: the answer's later texts (between its cards) go on under it.
    const continued = this.answerTextId !== undefined && this.find(this.answerTextId) !== undefined;
    const entry: ChatEntry = { kind: 'assistant', id: this.id(), markdown: text, streaming: true, ...(continued ? { continued: true } : {}) };
    if (!continued) this.answerTextId = entry.id;
    this.openTextId = entry.id;
    this.turnTextIds.push(entry.id);
    return [this.add(entry)];
  }

  /** Marks the response's text as complete (screen readers read it once it stops changing). */
  protected closeTurn(): ChatPatch[] {
    const patches: ChatPatch[] = [];
    for (const id of this.turnTextIds) {
      const entry = this.find(id);
      if (entry?.kind === 'assistant' && entry.streaming) {
        entry.streaming = false;
        patches.push({ type: 'entry', entry: { ...entry } });
      }
    }
    this.turnTextIds = [];
    this.openTextId = undefined;
    return patches;
  }

  protected voidTurnText(): ChatPatch[] {
    const voided = new Set(this.turnTextIds);
    this.entries = this.entries.filter((e) => !voided.has(e.id));
    this.turnTextIds = [];
    this.openTextId = undefined;
    return [...voided].map((id) => ({ type: 'remove', id }));
  }
}

function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
}
