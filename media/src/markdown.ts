/**
 * Model markdown → safe DOM. `marked` renders, then DOMPurify sanitizes its output (always in that
 * order: the renderer passes raw HTML through). Never insert model text any other way. Code
 * blocks carry their language in `data-lang` (classes are stripped) for the toolbar and highlighting.
 */
import DOMPurify from 'dompurify';
import { Marked, type Token, type Tokens } from 'marked';

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    code(token: Tokens.Code): string {
      const language = /^[A-Za-z0-9_+#.-]{1,40}/.exec(token.lang ?? '')?.[0] ?? '';
      return `<pre data-lang="${escapeHtml(language)}"><code>${escapeHtml(token.text)}</code></pre>\n`;
    },
  },
});

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

// Links may only leave the webview for the web or mail; anything else (javascript:, command:,
// vscode:, relative paths into the webview's origin) loses its href and stays plain text.
const SAFE_LINK = /^(https?:|mailto:)/i;

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A') return;
  const href = node.getAttribute('href') ?? '';
  if (!SAFE_LINK.test(href)) {
    node.removeAttribute('href');
    return;
  }
  node.setAttribute('title', href);
  node.setAttribute('rel', 'noopener noreferrer');
});

const SANITIZE = {
  // Remote media are blocked by the CSP anyway, and kept out here too (defence in depth); forms,
  // frames and labels have no business in an answer (`<label for=…>` clicks the chat's own
  // controls when clicked).
  FORBID_TAGS: [
    'style', 'img', 'picture', 'video', 'audio', 'source', 'track', 'object', 'embed', 'map', 'area', 'form', 'input', 'button', 'textarea',
    'select', 'option', 'label', 'dialog', 'iframe', 'frame', 'svg', 'math', 'link', 'meta', 'base',
  ],
  FORBID_ATTR: ['style', 'id', 'class', 'for', 'form', 'formaction', 'name', 'poster', 'srcset', 'src', 'autofocus', 'popover', 'popovertarget'],
  RETURN_DOM_FRAGMENT: true as const,
};

export function renderMarkdown(markdown: string): DocumentFragment {
  const html = marked.parse(markdown, { async: false });
  return DOMPurify.sanitize(html, SANITIZE);
}

/**
 * A streaming answer drawn block by block: the markdown is split into its top-level blocks
 * (marked's lexer; cheap next to rendering), the blocks whose source did not change keep their
 * DOM, and only the ones from the first change on (in practice the block being written) are
 * rendered again. `decorate` runs on each newly rendered block; `closed` is false for a fenced
 * code block still being written (it is highlighted once its fence closes).
 */
export class IncrementalMarkdown {
  private blocks: { raw: string; nodes: ChildNode[] }[] = [];
  private streaming = true;

  constructor(
    private readonly root: HTMLElement,
    private readonly decorate: (block: DocumentFragment, closed: boolean) => void,
  ) {}

  update(markdown: string, streaming: boolean): void {
    const tokens = marked.lexer(markdown);
    let same = 0;
    while (same < this.blocks.length && same < tokens.length && this.blocks[same].raw === tokens[same].raw) same++;
    // The end of the answer closes its last block (an unclosed code fence gets highlighted).
    if (streaming !== this.streaming && same === tokens.length) same = Math.max(0, same - 1);
    this.streaming = streaming;
    for (const block of this.blocks.splice(same)) for (const node of block.nodes) node.remove();
    for (let i = same; i < tokens.length; i++) {
      const token = tokens[i];
      const fragment = DOMPurify.sanitize(marked.parser([token]), SANITIZE);
      this.decorate(fragment, !(streaming && i === tokens.length - 1 && openFence(token)));
      const nodes = Array.from(fragment.childNodes);
      this.root.append(fragment);
      this.blocks.push({ raw: token.raw, nodes });
    }
  }
}

/** A fenced code block whose closing fence has not arrived yet. */
function openFence(token: Token): boolean {
  if (token.type !== 'code') return false;
  const raw = token.raw.replace(/\s+$/, '');
  if (!/^ {0,3}(`{3,}|~{3,})/.test(raw)) return false;
  const lines = raw.split('\n');
  return lines.length < 2 || !/^ {0,3}(`{3,}|~{3,})\s*$/.test(lines[lines.length - 1]);
}
