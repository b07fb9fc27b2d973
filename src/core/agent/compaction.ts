/**
 * Server-side compaction (`compact_20260112`, beta `compact-2026-01-12`), paired with memory so a
 * long session keeps its state through it:
 *
 * 1. Save BEFORE compaction. When a response shows the prompt past `saveThreshold` of the trigger,
 *    the next request asks Claude (once per compaction cycle, as a short text after the tool
 *    results) to record its state in /memories while it still sees everything.
 * 2. Instructions for the summary. The edit carries `instructions` (media/templates/
 *    compaction-instructions.md): what the summary must keep, and no tool calls while summarising
 *    (the documentation warns a summary can come back empty when tools are defined).
 * 3. Reload after compaction. With `pause_after_compaction` the API answers the request that
 *    passed the trigger with the `compaction` block alone (stop_reason `compaction`). The loop keeps
 *    that message verbatim (signed; the API drops everything before it on later requests) and the
 *    CLIENT reads the memory store (not the model): the tail of progress.md, the checklist's count
 *    and next failing features, startup.md. They go in the user turn that resumes the work.
 *
 * A block with `content: null` is the API's "summary failed": it goes back verbatim (the server
 * treats it as a no-op), nothing was compacted, nothing is reloaded.
 */
import type {
  BetaCompact20260112Edit,
  BetaContentBlock,
  BetaMessage,
  BetaMessageParam,
  BetaTextBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { parseFeatures, summarizeFeatures } from '../session/features';
import { SESSION_FILES } from '../session/memoryFiles';
import { clipText } from '../session/templates';
import { FileType } from '../memory/fileSystem';
import type { MemoryFileSystem } from '../memory/fileSystem';
import type { AgentUsage } from './events';

export const COMPACTION_BETA = 'compact-2026-01-12';
/**
 * Prompt size from which the API compacts. The API's own default is 150k; coding sessions with
 * tool output grow fast and a smaller context keeps each request cheaper and sharper, while 100k
 * still leaves room for a feature's worth of work between compactions.
 */
export const COMPACTION_TRIGGER_TOKENS = 100_000;
/** The API refuses a compaction trigger below this many tokens. */
export const MIN_COMPACTION_TRIGGER_TOKENS = 50_000;
/**
 * Fraction of the trigger at which Claude is asked to save its state: 75 % leaves one or two
 * turns of headroom (a turn with a large tool result can add 10k+) before the API compacts.
 */
export const DEFAULT_SAVE_THRESHOLD = 0.75;
/** The stop_reason of a response paused after compacting. */
export const COMPACTION_STOP_REASON = 'compaction';
/** Lines of progress.md reloaded after a compaction (its latest entries). */
export const RELOAD_PROGRESS_LINES = 40;
/** Failing features named after a compaction. */
export const RELOAD_NEXT_FEATURES = 3;
/** Largest text of one reloaded file, in characters (a huge file must not refill the context). */
const RELOAD_FILE_CHARS = 6_000;

// ---- Model-facing texts (one place) ----

export function saveRequestText(contextTokens: number, trigger: number): string {
  return (
    `Context check: the conversation is at about ${thousands(contextTokens)} tokens and will be compacted at ${thousands(trigger)}, ` +
    'after which you will see only a summary. Record your state in /memories now, while you still see everything: append to ' +
    '/memories/progress.md the task, what you verified (and how), decisions and their reasons, and the next step; in ' +
    '/memories/features.json change only "passes" of features you verified. Keep it short, then continue the task.'
  );
}

export const RELOAD_HEADER =
  'The conversation was compacted: the summary above replaces the earlier messages. Reloaded from memory by the client (not written by the user or by you just now):';
export const RELOAD_FOOTER = 'Continue the task where you left off; /memories has the full files.';

export const PROGRESS_REMINDER =
  'Before you stop: this session has not appended its entry to /memories/progress.md yet. Append it now at the END of the file ' +
  '(a new "## <date>: <summary>" section with Current state, Session log and Next steps), then end your turn.';

/** The `compact_20260112` edit. `instructions`: the template's text (blank: the server's default). */
export function compactionEdit(trigger: number | undefined, instructions?: string): BetaCompact20260112Edit {
  const edit: BetaCompact20260112Edit = {
    type: 'compact_20260112',
    trigger: { type: 'input_tokens', value: trigger ?? COMPACTION_TRIGGER_TOKENS },
    pause_after_compaction: true,
  };
  const text = instructions ? stripTemplateComment(instructions).trim() : '';
  if (text) edit.instructions = text;
  return edit;
}

/** The template's leading `<!-- ... -->` note is for its readers, not for the API. */
export function stripTemplateComment(template: string): string {
  return template.replace(/^\uFEFF?\s*<!--[\s\S]*?-->[ \t]*\r?\n/, '');
}

// ---- Reading what the API did ----

export interface CompactionReport {
  /** Prompt tokens the compaction closed (from the compaction iteration, else the last known prompt). */
  tokens_before: number;
  /** Tokens of the summary that replaces them (the compaction iteration's output, else ~4 chars a token). */
  tokens_after: number;
  saved_tokens: number;
  /** The API's summary failed (`content: null`): nothing was compacted. */
  failed?: boolean;
}

export function compactionBlocks(content: readonly BetaContentBlock[]): Extract<BetaContentBlock, { type: 'compaction' }>[] {
  return content.filter((b): b is Extract<BetaContentBlock, { type: 'compaction' }> => b.type === 'compaction');
}

/** True when `message` is the API's pause after compacting (with or without its block). */
export function isCompactionPause(message: BetaMessage): boolean {
  return message.stop_reason === COMPACTION_STOP_REASON;
}

/** Iteration entries of a usage, read without trusting their shape. */
interface Iteration {
  type?: unknown;
  input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
  output_tokens?: unknown;
  cache_creation?: { ephemeral_1h_input_tokens?: unknown } | null;
}

function iterationsOf(message: BetaMessage): Iteration[] {
  const list = (message.usage as { iterations?: unknown } | undefined)?.iterations;
  return Array.isArray(list) ? (list.filter((i) => typeof i === 'object' && i !== null) as Iteration[]) : [];
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

function usageOf(u: Iteration): AgentUsage {
  const usage: AgentUsage = {
    input_tokens: count(u.input_tokens),
    cache_read_input_tokens: count(u.cache_read_input_tokens),
    cache_creation_input_tokens: count(u.cache_creation_input_tokens),
    output_tokens: count(u.output_tokens),
  };
  const oneHour = count(u.cache_creation?.ephemeral_1h_input_tokens);
  if (oneHour > 0) usage.cache_creation_1h_input_tokens = oneHour;
  return usage;
}

export interface ResponseUsage {
  /** Top level plus every compaction iteration: what the request costs. */
  total: AgentUsage;
  /** The compaction iterations alone, or undefined when there were none. */
  compaction: AgentUsage | undefined;
  /** Prompt size of the last `message` iteration (the top level when the API lists none). */
  contextTokens: number;
  /** Prompt tokens the (last) compaction iteration read: the context it closed. */
  compactedPrompt: number;
  compactionOutput: number;
}

/** The meter's reading of one response: `usage` plus its `usage.iterations` compaction entries. */
export function responseUsage(message: BetaMessage): ResponseUsage {
  const top = usageOf(message.usage as unknown as Iteration);
  const iterations = iterationsOf(message);
  let compaction: AgentUsage | undefined;
  let compactedPrompt = 0;
  let compactionOutput = 0;
  let lastMessage: AgentUsage | undefined;
  for (const it of iterations) {
    const u = usageOf(it);
    if (it.type === 'compaction') {
      compaction = compaction ? sum(compaction, u) : u;
      compactedPrompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
      compactionOutput = u.output_tokens;
    } else if (it.type === 'message') {
      lastMessage = u;
    }
  }
  const source = lastMessage ?? top;
  return {
    total: compaction ? sum(top, compaction) : top,
    compaction,
    contextTokens: source.input_tokens + source.cache_read_input_tokens + source.cache_creation_input_tokens,
    compactedPrompt,
    compactionOutput,
  };
}

function sum(a: AgentUsage, b: AgentUsage): AgentUsage {
  const out: AgentUsage = {
    input_tokens: a.input_tokens + b.input_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
  const oneHour = (a.cache_creation_1h_input_tokens ?? 0) + (b.cache_creation_1h_input_tokens ?? 0);
  if (oneHour > 0) out.cache_creation_1h_input_tokens = oneHour;
  return out;
}

/**
 * What a compaction means in tokens. `previousPrompt`: the context size of the last request
 * answered before this one, used when the API reports no compaction iteration.
 */
export function compactionReport(message: BetaMessage, usage: ResponseUsage, previousPrompt: number): CompactionReport {
  const blocks = compactionBlocks(message.content);
  const failed = blocks.length > 0 && blocks.every((b) => b.content === null || b.content === undefined);
  const before = usage.compactedPrompt > 0 ? usage.compactedPrompt : previousPrompt;
  const summary = blocks.map((b) => b.content ?? '').join('');
  const after = failed ? before : usage.compactionOutput > 0 ? usage.compactionOutput : Math.ceil(summary.length / 4);
  return { tokens_before: before, tokens_after: after, saved_tokens: Math.max(0, before - after), ...(failed ? { failed: true } : {}) };
}

// ---- The reload ----

/** Reads a store file (`progress.md`, ...) as text; undefined when it does not exist. */
export type MemoryFileReader = (name: string) => Promise<string | undefined>;

/** Largest store file the reload reads (its tail is what is sent; a bigger file is left out). */
export const RELOAD_MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * A MemoryFileReader over a store's file system with the memory tool's own limits: a symbolic
 * link (which a cloned repository could point at a host file) or anything but a regular file is
 * never read, nor a file over RELOAD_MAX_FILE_BYTES. Missing or refused: undefined.
 */
export function storeFileReader(fs: Pick<MemoryFileSystem, 'stat' | 'readFile'>): MemoryFileReader {
  return async (name) => {
    try {
      const stat = await fs.stat(name);
      if ((stat.type & FileType.SymbolicLink) !== 0 || (stat.type & FileType.File) === 0 || stat.size > RELOAD_MAX_FILE_BYTES) return undefined;
      return new TextDecoder().decode(await fs.readFile(name));
    } catch {
      return undefined;
    }
  };
}

export interface ReloadedState {
  /** The text that goes into the resuming user turn; undefined when memory holds none of the files. */
  text: string | undefined;
  /** Which files were reloaded, for the chat's line ("progress", "checklist", "startup"). */
  parts: Array<'progress' | 'checklist' | 'startup'>;
}

/**
 * The state the client reloads after a compaction. Files that do not exist, or cannot be read,
 * are left out without a word; an unreadable checklist is said so in one line (the model should
 * know it is broken, not think it is empty).
 */
export async function reloadFromMemory(read: MemoryFileReader): Promise<ReloadedState> {
  const safe = async (name: string) => {
    try {
      return await read(name);
    } catch {
      return undefined;
    }
  };
  const [progress, features, startup] = await Promise.all([safe(SESSION_FILES.progress), safe(SESSION_FILES.features), safe(SESSION_FILES.startup)]);
  const sections: string[] = [];
  const parts: ReloadedState['parts'] = [];
  if (progress !== undefined && progress.trim() !== '') {
    const lines = progress.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
    const tail = lines.slice(-RELOAD_PROGRESS_LINES).join('\n');
    const heading = lines.length > RELOAD_PROGRESS_LINES ? `The last ${RELOAD_PROGRESS_LINES} lines of /memories/progress.md:` : '/memories/progress.md:';
    sections.push(`${heading}\n<progress>\n${clipTail(tail, RELOAD_FILE_CHARS)}\n</progress>`);
    parts.push('progress');
  }
  if (features !== undefined) {
    const parsed = parseFeatures(features);
    if (parsed.ok) {
      const s = summarizeFeatures(parsed.features);
      const failing = parsed.features.filter((f) => !f.passes).slice(0, RELOAD_NEXT_FEATURES);
      const next =
        failing.length === 0
          ? 'Every feature passes.'
          : `Next failing: ${failing.map((f) => `${f.id} ${JSON.stringify(clipText(f.description.replace(/\s+/g, ' ').trim(), 160))}`).join('; ')}.`;
      sections.push(`Checklist (/memories/features.json): ${s.passing} / ${s.total} features passing. ${next}`);
    } else {
      sections.push(`Checklist (/memories/features.json): cannot be read: ${parsed.problem}.`);
    }
    parts.push('checklist');
  }
  if (startup !== undefined && startup.trim() !== '') {
    sections.push(`/memories/startup.md (how to start and test the project):\n<startup>\n${clipText(stripTemplateComment(startup).trim(), RELOAD_FILE_CHARS)}\n</startup>`);
    parts.push('startup');
  }
  if (sections.length === 0) return { text: undefined, parts };
  return { text: [RELOAD_HEADER, ...sections, RELOAD_FOOTER].join('\n\n'), parts };
}

/** The end of `text` within `max` characters, cut at a line start. */
function clipTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max);
  const newline = cut.indexOf('\n');
  return `...\n${newline >= 0 ? cut.slice(newline + 1) : cut}`;
}

/** The chat's line for a compaction: "Context compacted — 96k → 6k tokens; progress and checklist reloaded from memory". */
export function compactionLine(report: CompactionReport, reloaded: ReloadedState['parts']): string {
  if (report.failed) return 'Context compaction failed: the API returned no summary, so the conversation goes on uncompacted.';
  const head = `Context compacted — ${thousands(report.tokens_before)} → ${thousands(report.tokens_after)} tokens`;
  const names = reloaded.map((p) => (p === 'startup' ? 'startup notes' : p));
  if (names.length === 0) return `${head}; memory has no progress log or checklist to reload`;
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${head}; ${list} reloaded from memory`;
}

/** 96_412 → "96k", 812 → "812", 1_250_000 → "1.3M". */
export function thousands(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  if (tokens >= 1_000) return `${Math.round(tokens / 1_000)}k`;
  return String(Math.round(tokens));
}

/** A text block for a user turn. */
export function textBlock(text: string): BetaTextBlockParam {
  return { type: 'text', text };
}

/** The user message that resumes after a pause: the reloaded state (or a bare "continue"). */
export function resumeMessage(reloaded: string | undefined): BetaMessageParam {
  return { role: 'user', content: [textBlock(reloaded ?? `The conversation was compacted: the summary above replaces the earlier messages. ${RELOAD_FOOTER}`)] };
}
