/**
 * `str_replace`: exactly one occurrence of `old_str`, searched over the whole text (so it may
 * span lines), is replaced literally (no `$&` expansion); an omitted `new_str` deletes it.
 */
import type { CommandHandler } from '../context';
import { messages } from '../messages';
import { editSnippet, replaceUnique } from '../textEdits';
import { withNote } from '../writer';
import { readEditTarget, rewriteEditTarget } from './editTarget';

export const strReplace: CommandHandler<'str_replace'> = async (ctx, input) => {
  const target = await readEditTarget(ctx, input.path, messages.strReplaceMissing);
  const replacement = replaceUnique(target.file.text, input.old_str, input.new_str, target.path.display);
  const written = await rewriteEditTarget(ctx, 'str_replace', target, replacement.after);
  const snippet = editSnippet(written.text, replacement, ctx.options.viewCharLimit);
  return {
    is_error: false,
    content: withNote(`${messages.edited} ${messages.editSnippetIntro}\n${snippet}`, written.redactionNote),
    touched: { kind: 'write', path: target.path.display },
  };
};
