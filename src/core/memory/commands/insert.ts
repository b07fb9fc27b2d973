/**
 * `insert`: `insert_text` goes after line `insert_line` (0 = top) as whole lines. Rules:
 * the text's line breaks adopt the file's dominant ending; a final line break is added when the
 * text has none, except when appending after a last line that itself has no line break — then
 * that line gets one and the file keeps ending the way the inserted text ends.
 */
import type { CommandHandler } from '../context';
import { MemoryError } from '../errors';
import { messages } from '../messages';
import { countLines, dominantEol, offsetAfterLine, withEol } from '../text';
import { withNote } from '../writer';
import { readEditTarget, rewriteEditTarget } from './editTarget';

export const insert: CommandHandler<'insert'> = async (ctx, input) => {
  const target = await readEditTarget(ctx, input.path, messages.pathMissing);
  const { path } = target;
  const text = target.file.text;
  const nLines = countLines(text);
  const line = input.insert_line;
  if (line < 0 || line > nLines) throw new MemoryError(messages.invalidInsertLine(line, nLines));

  const eol = dominantEol(text);
  const block = withEol(input.insert_text, eol);
  let after: string;
  if (line === nLines && nLines > 0 && !text.endsWith('\n')) {
    after = text + eol + block;
  } else {
    const offset = offsetAfterLine(text, line);
    const whole = block.endsWith('\n') ? block : block + eol;
    after = text.slice(0, offset) + whole + text.slice(offset);
  }
  const written = await rewriteEditTarget(ctx, 'insert', target, after);
  return {
    is_error: false,
    content: withNote(messages.inserted(path.display), written.redactionNote),
    touched: { kind: 'write', path: path.display },
  };
};
