/**
 * Fills the readable templates of media/templates/: `{{name}}` placeholders, one pass (a value
 * that itself contains `{{x}}`, like a pasted goal, is never expanded), and the leading
 * `<!-- ... -->` comment that documents the template for its readers is dropped.
 */

export class TemplateError extends Error {
  override name = 'TemplateError';
}

const PLACEHOLDER = /\{\{([A-Za-z][A-Za-z0-9]*)\}\}/g;

export function renderTemplate(template: string, values: Readonly<Record<string, string>>): string {
  const body = template.replace(/^\uFEFF?\s*<!--[\s\S]*?-->[ \t]*\r?\n/, '');
  const missing = [...new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1]))].filter((k) => !(k in values));
  if (missing.length > 0) throw new TemplateError(`The template has no value for ${missing.map((k) => `{{${k}}}`).join(', ')}.`);
  return body.replace(PLACEHOLDER, (_, key: string) => values[key]);
}

/** `2026-11-30`, in local time: the day the user sees on their calendar. */
export function isoDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Markdown blockquote of free text (keeps its line breaks, cannot open a heading of the template). */
export function quoteBlock(text: string): string {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
}

/** At most `max` characters, with "..." marking a cut: file content quoted into short texts. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
