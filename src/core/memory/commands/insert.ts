/** `insert`: `insert_text` goes after line `insert_line` (0 = top) as whole lines (see insertLines). */
import type { CommandHandler } from '../context';
import { messages } from '../messages';
import { insertLines } from '../textEdits';
import { withNote } from '../writer';
import { readEditTarget, rewriteEditTarget } from './editTarget';

export const insert: CommandHandler<'insert'> = async (ctx, input) => {
  const target = await readEditTarget(ctx, input.path, messages.pathMissing);
  const { after } = insertLines(target.file.text, input.insert_line, input.insert_text);
  const written = await rewriteEditTarget(ctx, 'insert', target, after);
  return {
    is_error: false,
    content: withNote(messages.inserted(target.path.display), written.redactionNote),
    touched: { kind: 'write', path: target.path.display },
  };
};
