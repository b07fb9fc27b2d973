/**
 * Text the extension gives back to the composer (protocol `draft`): queued messages that will not
 * be sent go in front of what is typed (never dropped); the message a rewind went back to goes in
 * only when the composer is empty, and over a draft the note offers to put it back instead of
 * merging the two. Empty text: only the note (a rewound built-in routine is not put back). A
 * rewind undone takes its message out again (`withdraw`), unless it was edited meanwhile.
 */
import type { ExtensionToWebview } from '../../src/features/chat/shared/protocol';
import { element, icon } from './dom';

type Draft = Extract<ExtensionToWebview, { type: 'draft' }>;

export function applyDraft(input: HTMLTextAreaElement, note: HTMLElement, draft: Draft, changed: () => void): void {
  note.replaceChildren(document.createTextNode(draft.reason));
  note.hidden = false;
  if (draft.withdraw !== undefined && input.value.trim() === draft.withdraw.trim()) input.value = '';
  if (draft.text !== '') {
    if (input.value.trim() === '') input.value = draft.text;
    else if (!draft.ask) input.value = `${draft.text}\n\n${input.value}`;
    else {
      note.textContent = 'Rewound. Your draft is kept; the message you rewound to is not merged into it. ';
      const put = element('button', 'link composer-note-action', undefined, { type: 'button', 'data-action': 'put-back-rewound', title: 'Put the rewound message above your draft, to edit both' });
      put.append(icon('arrow-up'), document.createTextNode(' Put it back above your draft'));
      put.addEventListener('click', () => {
        input.value = `${draft.text}\n\n${input.value}`;
        note.hidden = true;
        input.focus();
        changed();
      });
      note.append(put);
    }
  }
  changed();
}
