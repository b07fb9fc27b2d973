/**
 * `str_replace`: exactly one occurrence of `old_str`, searched over the whole text (so it may
 * span lines), is replaced literally (no `$&` expansion); an omitted `new_str` deletes it.
 */
import type { CommandHandler } from '../context';
import { MemoryError } from '../errors';
import { messages } from '../messages';
import { countLines, displayLines, dominantEol, lineAt, withEol } from '../text';
import { numberedBody } from '../truncate';
import { withNote } from '../writer';
import { readEditTarget, rewriteEditTarget } from './editTarget';

const SNIPPET_CONTEXT_LINES = 4;

export const strReplace: CommandHandler<'str_replace'> = async (ctx, input) => {
  const target = await readEditTarget(ctx, input.path, messages.strReplaceMissing);
  const { path } = target;
  const text = target.file.text;
  const eol = dominantEol(text);

  let oldStr = input.old_str;
  let positions = occurrences(text, oldStr);
  // The model sees lines without their `\r`: a multi-line old_str written with LF still finds
  // its text in a CRLF file.
  if (positions.length === 0 && eol === '\r\n' && /(?<!\r)\n/.test(oldStr)) {
    oldStr = withEol(oldStr, '\r\n');
    positions = occurrences(text, oldStr);
  }
  if (positions.length === 0) throw new MemoryError(messages.noMatch(input.old_str, path.display));
  if (positions.length > 1) {
    throw new MemoryError(messages.multipleMatches(input.old_str, distinctLines(text, positions)));
  }

  const at = positions[0];
  const newStr = withEol(input.new_str ?? '', eol);
  const after = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
  const written = await rewriteEditTarget(ctx, 'str_replace', target, after);

  // Snippet: the edited lines with a few lines of context, numbered like `view`.
  const finalLines = displayLines(written.text);
  const firstEdited = lineAt(after, at);
  const lastEdited = Math.max(firstEdited, countLines(after.slice(0, at + newStr.length)));
  const from = Math.max(1, firstEdited - SNIPPET_CONTEXT_LINES);
  const to = Math.min(finalLines.length, lastEdited + SNIPPET_CONTEXT_LINES);
  const snippet =
    finalLines.length === 0
      ? messages.emptyFile
      : numberedBody(finalLines.slice(from - 1, to), from, finalLines.length, ctx.options.viewCharLimit);
  return {
    is_error: false,
    content: withNote(`${messages.edited} ${messages.editSnippetIntro}\n${snippet}`, written.redactionNote),
    touched: { kind: 'write', path: path.display },
  };
};

/** Occurrences beyond this are not searched: the call fails either way and the list is long enough. */
const MAX_REPORTED_OCCURRENCES = 100;

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
