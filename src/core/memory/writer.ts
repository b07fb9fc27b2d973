/**
 * The single write path for text: redaction → per-file cap → write guards → quota → atomic
 * write. Every check runs before anything touches the store, so a refused write changes nothing.
 * The guards judge like with like: the text that will really be written (redacted) against the
 * current text redacted the same way. Otherwise one secret-looking string anywhere in an earlier
 * entry (the user's goal, pasted by hand) would make every later append look like a rewrite of
 * history; with both sides redacted, the only difference is what the agent changed, and the
 * earlier secret leaves the disk with this write.
 */
import type { CommandContext } from './context';
import { MemoryError } from './errors';
import { formatSizePair } from './format';
import { messages } from './messages';
import { displayOf, parentOf } from './paths';
import { redactSecrets, summarizeRedactions } from './redaction';
import { encodeText } from './text';
import type { MemoryCommandName } from './types';

export interface TextWrite {
  command: MemoryCommandName;
  rel: string;
  /** Current text (for guards), undefined for a new file. */
  before: string | undefined;
  /** Current size in bytes (for the quota delta), 0 for a new file. */
  beforeBytes: number;
  after: string;
  bom: boolean;
  /** Whether the target may already exist (false: a racing file makes the write fail). */
  overwrite: boolean;
  /** The bytes the command read: the write is abandoned if the file no longer holds them. */
  expected?: Uint8Array;
  /** Folder to create first (create into a new folder); created only once every check passed. */
  createParent?: boolean;
}

export interface WrittenText {
  /** The text that reached disk (after redaction). */
  text: string;
  /** Sentence to append to the success message when something was redacted. */
  redactionNote?: string;
}

/**
 * The byte arrays this write path produced with redaction on (weakly held): history's redacted
 * copy of such a content is the content itself, already through the same redaction (the engine
 * hands history the very array it wrote).
 */
const REDACTED_OUTPUTS = new WeakSet<Uint8Array>();

export function isRedactedOutput(bytes: Uint8Array): boolean {
  return REDACTED_OUTPUTS.has(bytes);
}

export async function writeText(ctx: CommandContext, write: TextWrite): Promise<WrittenText> {
  let text = write.after;
  let redactionNote: string | undefined;
  if (ctx.options.redactSecrets) {
    const redaction = redactSecrets(text);
    if (redaction.counts.size > 0) {
      text = redaction.text;
      redactionNote = messages.redacted(summarizeRedactions(redaction.counts));
    }
  }
  const bytes = encodeText(text, write.bom);
  if (ctx.options.redactSecrets) REDACTED_OUTPUTS.add(bytes);
  if (bytes.length > ctx.options.maxFileBytes) {
    throw new MemoryError(
      messages.fileTooLarge(displayOf(write.rel), ...formatSizePair(bytes.length, ctx.options.maxFileBytes)),
    );
  }
  if (ctx.guards.protects(write.rel)) {
    const before = write.before !== undefined && ctx.options.redactSecrets ? redactSecrets(write.before).text : write.before;
    await ctx.guards.checkWrite(write.command, write.rel, before, text);
  }
  const delta = bytes.length - write.beforeBytes;
  await ctx.quota.assertRoomFor(delta);
  try {
    // Only when missing: some hosts' createDirectory refuses an existing folder.
    const parent = parentOf(write.rel);
    if (write.createParent && (await ctx.store.inspect(parent)).kind === 'missing') await ctx.store.ensureDirectory(parent);
    await ctx.store.writeAtomic(write.rel, bytes, write.overwrite, write.expected);
  } catch (e) {
    ctx.quota.invalidate();
    throw e;
  }
  ctx.quota.applied(delta);
  return { text, redactionNote };
}

/** Success text plus the redaction sentence, if any. */
export function withNote(message: string, note: string | undefined): string {
  return note === undefined ? message : `${message}\n${note}`;
}
