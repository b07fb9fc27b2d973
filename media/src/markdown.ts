/**
 * Model markdown → safe DOM. `marked` renders, then DOMPurify sanitizes its output (always in that
 * order: the renderer passes raw HTML through). Never insert model text any other way. Code
 * blocks carry their language in `data-lang` (classes are stripped) for the toolbar and highlighting.
 */
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';

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
  // Remote images are blocked by the CSP anyway; forms and frames have no business in an answer.
  FORBID_TAGS: ['style', 'img', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'svg', 'math'],
  FORBID_ATTR: ['style', 'id', 'class'],
  RETURN_DOM_FRAGMENT: true as const,
};

export function renderMarkdown(markdown: string): DocumentFragment {
  const html = marked.parse(markdown, { async: false });
  return DOMPurify.sanitize(html, SANITIZE);
}
