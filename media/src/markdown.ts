/**
 * Model markdown → safe DOM. `marked` renders, then DOMPurify sanitizes its output (always in that
 * order: the renderer passes raw HTML through). Never insert model text any other way.
 */
import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const marked = new Marked({ gfm: true, breaks: false, async: false });

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
