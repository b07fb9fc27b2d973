/**
 * The scripted server's token accounting: what the real API would bill for one request, given
 * prompt caching breakpoints and clear_tool_uses context editing. Deliberately simple and honest:
 * tokens = ceil(chars / 4) of each block's JSON (cache_control left out), cache hits only on
 * block boundaries the API would look at, clearing only when the request asks for it.
 */

/** The API expands `{"type":"memory_20250818","name":"memory"}` into a full tool description. */
export const MEMORY_TOOL_TOKENS = 700;
/** Blocks before a breakpoint where the API still looks for an earlier cache entry. */
export const CACHE_LOOKBACK_BLOCKS = 20;
export const CLEARED_PLACEHOLDER = '[tool result cleared to save context]';

export interface BillingOptions {
  /** Prefixes shorter than this are never cached (the API's per-model minimum). Default 1024. */
  minCacheTokens?: number;
}

export interface SimulatedUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface AppliedClear {
  type: 'clear_tool_uses_20250919';
  cleared_tool_uses: number;
  cleared_input_tokens: number;
}

interface Block {
  tokens: number;
  key: string;
  breakpoint: boolean;
}

type Json = Record<string, unknown>;

export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Prompt cache shared by all requests of one server (entries never expire within a test). */
export class PromptCache {
  private readonly entries = new Set<string>();
  constructor(private readonly options: BillingOptions = {}) {}

  bill(full: Json): { usage: SimulatedUsage; applied: AppliedClear[] } {
    const body = afterLastCompaction(full);
    const original = flatten(body);
    const edited = applyContextEditing(body, original);
    const blocks = edited.body === body ? original : flatten(edited.body);
    const min = this.options.minCacheTokens ?? 1024;
    const cumulative: number[] = [];
    let total = 0;
    for (const block of blocks) cumulative.push((total += block.tokens));
    const breakpoints = blocks.map((b, i) => (b.breakpoint ? i : -1)).filter((i) => i >= 0);

    let readEnd = -1;
    for (const bp of breakpoints) {
      for (let j = bp; j >= Math.max(0, bp - CACHE_LOOKBACK_BLOCKS + 1); j--) {
        if (this.entries.has(blocks[j].key)) {
          readEnd = Math.max(readEnd, j);
          break;
        }
      }
    }
    const read = readEnd >= 0 ? cumulative[readEnd] : 0;
    let writeEnd = readEnd;
    for (const bp of breakpoints) {
      if (cumulative[bp] < min) continue;
      this.entries.add(blocks[bp].key);
      if (bp > writeEnd) writeEnd = bp;
    }
    const created = writeEnd > readEnd ? cumulative[writeEnd] - read : 0;
    return {
      usage: { input_tokens: total - read - created, cache_read_input_tokens: read, cache_creation_input_tokens: created },
      applied: edited.applied,
    };
  }
}

/**
 * compact_20260112 as the API documents it: a request that carries a compaction block (with a
 * summary) is read from that block on; the messages before it are dropped. A block with
 * `content: null` (a failed summary) is a no-op.
 */
export function afterLastCompaction(body: Json): Json {
  const messages = (body.messages as Json[] | undefined) ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i].content;
    if (!Array.isArray(content)) continue;
    for (let j = content.length - 1; j >= 0; j--) {
      const block = content[j] as Json;
      if (block.type === 'compaction' && typeof block.content === 'string') {
        return { ...body, messages: [{ ...messages[i], content: content.slice(j) }, ...messages.slice(i + 1)] };
      }
    }
  }
  return body;
}

/** Prompt tokens of a request as the API counts them for a trigger (after any earlier compaction). */
export function promptTokensOf(body: Json): number {
  return flatten(afterLastCompaction(body)).reduce((sum, b) => sum + b.tokens, 0);
}

/**
 * The key of a prefix: two chained 32-bit FNV-1a hashes (different offset bases) of the previous
 * key and the block. Collisions are negligible at test sizes, and it is far cheaper than sha256,
 * which matters because the server shares the benchmark's process.
 */
function chainKey(previous: string, text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  const feed = (s: string) => {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 16777619) >>> 0;
      b = Math.imul(b ^ c, 16777619) ^ (b >>> 13);
    }
  };
  feed(previous);
  feed(text);
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0') + text.length.toString(36);
}

/** The request as a list of blocks in prompt order (tools, system, messages), each keyed by its whole prefix. */
function flatten(body: Json): Block[] {
  const blocks: Block[] = [];
  let prefix = '';
  const push = (value: unknown, tokens: number | undefined, boundary: string) => {
    const { cache_control, ...rest } = (typeof value === 'object' && value !== null ? value : { text: value }) as Json;
    const text = boundary + JSON.stringify(rest);
    prefix = chainKey(prefix, text);
    blocks.push({ tokens: tokens ?? tokensOf(text), key: prefix, breakpoint: cache_control !== undefined && cache_control !== null });
  };
  for (const tool of (body.tools as Json[] | undefined) ?? []) {
    push(tool, tool.type === 'memory_20250818' ? MEMORY_TOOL_TOKENS : undefined, 'tool:');
  }
  const system = body.system;
  if (typeof system === 'string') push(system, undefined, 'system:');
  else for (const block of (system as Json[] | undefined) ?? []) push(block, undefined, 'system:');
  for (const message of (body.messages as Json[] | undefined) ?? []) {
    const content = message.content;
    if (typeof content === 'string') push(content, undefined, `${String(message.role)}:`);
    else (content as Json[]).forEach((block, i) => push(block, undefined, i === 0 ? `${String(message.role)}:` : ''));
  }
  if (body.cache_control && blocks.length > 0) blocks[blocks.length - 1].breakpoint = true;
  return blocks;
}

/**
 * clear_tool_uses_20250919 as the API documents it, read literally and statelessly (the client
 * always sends its full history): on every request whose prompt passes the trigger, replace the
 * results of all but the `keep` most recent tool uses with a placeholder (and their inputs when
 * clear_tool_inputs), unless that clears less than clear_at_least. The cache is then matched on
 * the edited prompt, so a clear invalidates every cache entry past the first cleared result.
 */
function applyContextEditing(body: Json, blocks: Block[]): { body: Json; applied: AppliedClear[] } {
  const edits = ((body.context_management as Json | undefined)?.edits as Json[] | undefined) ?? [];
  const edit = edits.find((e) => e.type === 'clear_tool_uses_20250919');
  if (!edit) return { body, applied: [] };
  const total = blocks.reduce((sum, b) => sum + b.tokens, 0);
  const trigger = (edit.trigger as Json | undefined) ?? { type: 'input_tokens', value: 100_000 };
  if (trigger.type === 'input_tokens' && total <= Number(trigger.value)) return { body, applied: [] };
  const messages = structuredClone(body.messages as Json[]);
  const uses = toolUses(messages);
  if (trigger.type === 'tool_uses' && uses.length <= Number(trigger.value)) return { body, applied: [] };
  const keep = Number(((edit.keep as Json | undefined)?.value as number | undefined) ?? 3);
  const excluded = new Set((edit.exclude_tools as string[] | undefined) ?? []);
  const clearInputs = edit.clear_tool_inputs === true;
  let cleared = 0;
  for (const use of uses.slice(0, Math.max(0, uses.length - keep))) {
    if (excluded.has(String(use.block.name))) continue;
    if (use.result) {
      if (use.result.content === CLEARED_PLACEHOLDER) continue;
      use.result.content = CLEARED_PLACEHOLDER;
    }
    if (clearInputs) use.block.input = {};
    cleared++;
  }
  const editedBody = { ...body, messages };
  const clearedTokens = total - flatten(editedBody).reduce((sum, b) => sum + b.tokens, 0);
  const atLeast = Number(((edit.clear_at_least as Json | undefined)?.value as number | undefined) ?? 0);
  if (cleared === 0 || clearedTokens < atLeast) return { body, applied: [] };
  return { body: editedBody, applied: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: cleared, cleared_input_tokens: clearedTokens }] };
}

function toolUses(messages: Json[]): { block: Json; result?: Json }[] {
  const results = new Map<string, Json>();
  for (const m of messages) {
    if (m.role === 'user' && Array.isArray(m.content)) {
      for (const b of m.content as Json[]) if (b.type === 'tool_result') results.set(String(b.tool_use_id), b);
    }
  }
  const uses: { block: Json; result?: Json }[] = [];
  for (const m of messages) {
    if (m.role === 'assistant' && Array.isArray(m.content)) {
      for (const b of m.content as Json[]) if (b.type === 'tool_use') uses.push({ block: b, result: results.get(String(b.id)) });
    }
  }
  return uses;
}
