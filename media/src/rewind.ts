/**
 * Rewind on the conversation's rows: "Rewind to here" on each user message that has a
 * checkpoint, and the marks a rewind leaves — the message rewound to says what the rewind did and
 * offers Undo Rewind (until the next message is sent), and when the conversation was rewound it
 * and the rows after it are kept but folded (one toggle shows them again).
 */
import type { ChatEntry } from '../../src/features/chat/shared/protocol';
import { element, icon } from './dom';
import type { CardMessage } from './render';

/** Rewound rows are shown while the page has this class (the toggle on a rewound message). */
const SHOW_REWOUND = 'show-rewound';

export function decorateRewind(entry: ChatEntry, el: HTMLElement, post: (message: CardMessage) => void): HTMLElement {
  if (entry.rewound) el.classList.add('rewound');
  if (entry.kind !== 'user') return el;
  if (entry.rewoundHere !== undefined) {
    el.classList.add('rewound-head');
    const strip = element('div', 'rewound-here');
    strip.append(icon('history'), element('span', 'rewound-text', entry.rewoundHere));
    if (entry.rewound) {
      const toggle = element('button', 'link rewound-toggle', undefined, { type: 'button', 'data-action': 'show-rewound' });
      const label = (): string => (document.body.classList.contains(SHOW_REWOUND) ? 'Hide rewound messages' : 'Show rewound messages');
      toggle.append(icon('fold'), document.createTextNode(` ${label()}`));
      toggle.addEventListener('click', () => {
        document.body.classList.toggle(SHOW_REWOUND);
        for (const t of document.querySelectorAll<HTMLButtonElement>('.rewound-toggle')) t.lastChild!.textContent = ` ${label()}`;
      });
      strip.append(toggle);
    }
    if (entry.rewindUndo) {
      const title = 'Bring back the files, memory and messages as they were just before this rewind (you are asked first)';
      strip.append(linkButton('rewind-undo', 'undo-rewind', 'redo', 'Undo Rewind', title, () => post({ type: 'undoRewind', entryId: entry.id })));
    }
    el.append(strip);
  } else if (entry.checkpoint !== undefined && !entry.rewound) {
    const title = 'Bring the files and memory back to how they were before this message (you see what changes first)';
    const bar = element('div', 'user-actions');
    bar.append(linkButton('rewind-button', 'rewind', 'discard', 'Rewind to here', title, () => post({ type: 'rewind', entryId: entry.id })));
    el.append(bar);
  }
  return el;
}

/** A link-style button with an icon: Rewind to here, Undo Rewind. */
function linkButton(className: string, action: string, codicon: string, text: string, title: string, click: () => void): HTMLButtonElement {
  const button = element('button', `link ${className}`, undefined, { type: 'button', 'data-action': action, title });
  button.append(icon(codicon), document.createTextNode(` ${text}`));
  button.addEventListener('click', click);
  return button;
}
