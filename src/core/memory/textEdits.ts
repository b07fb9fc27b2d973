/**
 * The text logic the memory tool and the workspace text editor share, because for both tools it is
 * one logic: a line-numbered view with `view_range` and truncation, `str_replace` of a unique
 * occurrence (with the lines of every occurrence when it is not unique) and its numbered snippet,
 * and `insert` of whole lines after a line. Pure string functions: each tool reads and writes
 * through its own store and words its own success messages.
 */
import { MemoryError } from './errors';
import { MAX_VIEW_LINES, messages } from './messages';
import { countLines, displayLines, dominantEol, lineAt, offsetAfterLine, withEol } from './text';
import { numberedBody } from './truncate';

const SNIPPET_CONTEXT_LINES = 4;
/** Occurrences beyond this are not searched: the call fails either way and the list is long enough. */
const MAX_REPORTED_OCCURRENCES = 100;

/** `header` then the file's numbered lines (all, or `range`), cut at `limit` characters. */
export function numberedView(header: string, display: string, text: string, range: [number, number] | undefined, limit: number): string {
  const lines = displayLines(text);
  if (lines.length > MAX_VIEW_LINES) throw new MemoryError(messages.tooManyLines(display));
  const [start, end] = resolveViewRange(range, lines.length);
  const body = lines.length === 0 ? messages.emptyFile : numberedBody(lines.slice(start - 1, end), start, lines.length, limit);
  return `${header}\n${body}`;
}

/** 1-based inclusive [start, end] to show, validating `view_range` against the file. */
export function resolveViewRange(range: [number, number] | undefined, total: number): [number, number] {
  if (range === undefined) return [1, total];
  const [start, end] = range;
  const shown = `[${start}, ${end}]`;
  if (total === 0) throw new MemoryError(messages.invalidViewRange(shown, 'The file is empty; view it without `view_range`.'));
  if (start < 1 || start > total) {
    throw new MemoryError(
      messages.invalidViewRange(shown, `Its first element \`${start}\` should be within the range of lines of the file: [1, ${total}].`),
    );
  }
  if (end === -1) return [start, total];
  if (end < start) {
    throw new MemoryError(
      messages.invalidViewRange(shown, `Its second element \`${end}\` should be -1 or at least the first element \`${start}\`.`),
    );
  }
  if (end > total) {
    throw new MemoryError(
      messages.invalidViewRange(shown, `Its second element \`${end}\` should be at most the number of lines in the file, ${total} (or -1 for the end).`),
    );
  }
  return [start, end];
}

export interface Replacement {
  /** The whole text after the replacement. */
  after: string;
  /** Offset of the replaced occurrence. */
  at: number;
  /** Length of the inserted text (line breaks adapted to the file). */
  insertedLength: number;
}

/**
 * Replaces the one occurrence of `oldStr` (searched over the whole text, so it may span lines)
 * literally (no `$&` expansion); throws the documented sentences for none or several.
 */
export function replaceUnique(text: string, oldStr: string, newStr: string | undefined, display: string): Replacement {
  const eol = dominantEol(text);
  let needle = oldStr;
  let positions = occurrences(text, needle);
  // The model sees lines without their `\r`: a multi-line old_str written with LF still finds
  // its text in a CRLF file.
  if (positions.length === 0 && eol === '\r\n' && /(?<!\r)\n/.test(needle)) {
    needle = withEol(needle, '\r\n');
    positions = occurrences(text, needle);
  }
  if (positions.length === 0) throw new MemoryError(messages.noMatch(oldStr, display));
  if (positions.length > 1) throw new MemoryError(messages.multipleMatches(oldStr, distinctLines(text, positions)));
  const at = positions[0];
  const inserted = withEol(newStr ?? '', eol);
  return { after: text.slice(0, at) + inserted + text.slice(at + needle.length), at, insertedLength: inserted.length };
}

/** The edited lines of `replacement` with a few lines of context, numbered like `view`, taken from `written`. */
export function editSnippet(written: string, replacement: Replacement, limit: number): string {
  const finalLines = displayLines(written);
  if (finalLines.length === 0) return messages.emptyFile;
  const firstEdited = lineAt(replacement.after, replacement.at);
  const lastEdited = Math.max(firstEdited, countLines(replacement.after.slice(0, replacement.at + replacement.insertedLength)));
  const from = Math.max(1, firstEdited - SNIPPET_CONTEXT_LINES);
  const to = Math.min(finalLines.length, lastEdited + SNIPPET_CONTEXT_LINES);
  return numberedBody(finalLines.slice(from - 1, to), from, finalLines.length, limit);
}

/**
 * `inserted` goes after line `line` (0 = top) as whole lines. Its line breaks adopt the file's
 * dominant ending; a final line break is added when it has none, except when appending after a
 * last line that itself has no line break: then that line gets one and the file keeps ending the
 * way the inserted text ends.
 */
export function insertLines(text: string, line: number, inserted: string): Replacement {
  const nLines = countLines(text);
  if (!Number.isSafeInteger(line) || line < 0 || line > nLines) throw new MemoryError(messages.invalidInsertLine(line, nLines));
  const eol = dominantEol(text);
  const block = withEol(inserted, eol);
  if (line === nLines && nLines > 0 && !text.endsWith('\n')) {
    return { after: text + eol + block, at: text.length + eol.length, insertedLength: block.length };
  }
  const offset = offsetAfterLine(text, line);
  const whole = block.endsWith('\n') ? block : block + eol;
  return { after: text.slice(0, offset) + whole + text.slice(offset), at: offset, insertedLength: Math.max(0, whole.length - eol.length) };
}

/** Start offsets of occurrences, overlapping ones included (`aa` in `aaa` is two), capped. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i >= 0 && found.length < MAX_REPORTED_OCCURRENCES; i = text.indexOf(needle, i + 1)) {
    found.push(i);
  }
  return found;
}

/** 1-based line numbers of ascending offsets, without repeats, in one pass over the text. */
function distinctLines(text: string, positions: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const position of positions) {
    for (let nl = text.indexOf('\n', scanned); nl >= 0 && nl < position; nl = text.indexOf('\n', nl + 1)) {
      line++;
      scanned = nl + 1;
    }
    if (lines[lines.length - 1] !== line) lines.push(line);
  }
  return lines;
}
