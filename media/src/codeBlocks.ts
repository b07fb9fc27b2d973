/**
 * Code blocks in answers: a header with the language and a toolbar (Copy, Insert at Cursor, New
 * File) that shows on hover and keyboard focus, and syntax highlighting. Works on the sanitized
 * DOM that renderMarkdown returns.
 */
import type { CodeAction } from '../../src/features/chat/shared/protocol';
import { highlightCode } from './highlight';
import { icon } from './dom';

export type CodeActionHandler = (action: CodeAction, code: string, language: string | undefined) => void;

const BUTTONS: { action: CodeAction; icon: string; label: string }[] = [
  { action: 'copy', icon: 'copy', label: 'Copy' },
  { action: 'insert', icon: 'insert', label: 'Insert at Cursor' },
  { action: 'newFile', icon: 'new-file', label: 'New File' },
];

/**
 * Decorates every `pre` of a rendered answer; the code text is read at click time. `highlight`
 * false leaves the code plain (a block still being streamed: it is highlighted once closed).
 */
export function decorateCodeBlocks(root: ParentNode, onAction: CodeActionHandler, highlight = true): void {
  for (const pre of Array.from(root.querySelectorAll<HTMLPreElement>('pre'))) {
    const code = pre.querySelector('code');
    if (!code) continue;
    const language = pre.dataset.lang || undefined;
    const text = code.textContent ?? '';
    const highlighted = language && highlight ? highlightCode(text, language.toLowerCase()) : undefined;
    if (highlighted) {
      code.replaceChildren(highlighted);
      code.classList.add('hljs');
    }
    const block = document.createElement('div');
    block.className = 'code-block';
    const bar = document.createElement('div');
    bar.className = 'code-toolbar';
    const label = document.createElement('span');
    label.className = 'code-language';
    label.textContent = language ?? '';
    bar.append(label);
    for (const b of BUTTONS) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'icon-button code-action';
      button.dataset.action = b.action;
      button.title = b.label;
      button.setAttribute('aria-label', `${b.label}${language ? ` (${language})` : ''}`);
      button.append(icon(b.icon));
      button.addEventListener('click', () => {
        onAction(b.action, text, language);
        if (b.action === 'copy') flash(button);
      });
      bar.append(button);
    }
    pre.replaceWith(block);
    block.append(bar, pre);
  }
}

/** A check mark for a moment: the copy happened. */
function flash(button: HTMLButtonElement): void {
  button.replaceChildren(icon('check'));
  button.classList.add('done');
  setTimeout(() => {
    button.replaceChildren(icon('copy'));
    button.classList.remove('done');
  }, 1500);
}
