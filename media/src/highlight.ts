/**
 * Syntax highlighting for code blocks: highlight.js core with the languages chats mostly show,
 * bundled by esbuild (no CDN, no inline style: fits the webview's CSP). Colours come from
 * chat.css, which maps hljs classes to VS Code theme variables.
 */
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, c, cpp, csharp, css, diff, go, ini, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** True when `language` (a fence name or alias such as `ts`, `sh`, `html`) is highlighted. */
export function isHighlighted(language: string): boolean {
  return hljs.getLanguage(language) !== undefined;
}

/**
 * The highlighted code as DOM, or undefined for a language we do not bundle. hljs escapes the
 * code itself; the result is sanitized anyway, allowing only its spans and their classes.
 */
export function highlightCode(code: string, language: string): DocumentFragment | undefined {
  if (!isHighlighted(language)) return undefined;
  const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  return DOMPurify.sanitize(html, { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'], RETURN_DOM_FRAGMENT: true });
}
