/** What a row is without its DOM: the plain text a far page keeps, and its height before it is drawn. */
import type { ChatEntry } from '../../src/features/chat/shared/protocol';
import { formatUsageLine } from './format';

/** What a row says, in the plain text a far page keeps (find in page, screen readers). */
export function rowText(entry: ChatEntry | undefined): string {
  switch (entry?.kind) {
    case undefined:
      return '';
    case 'user':
      return `You: ${entry.label ? `${entry.label}\n` : ''}${entry.text}`;
    case 'assistant':
      return entry.continued ? entry.markdown : `Claude: ${entry.markdown}`;
    case 'tool':
      return [`${entry.command} ${entry.path ?? ''}`.trim(), entry.summary, entry.output].filter((part) => part).join('\n');
    case 'usage':
      return formatUsageLine(entry.usage, entry.costUsd);
    case 'notice':
    case 'reads':
      return entry.text;
    case 'error':
      return entry.message;
  }
}

/** A row's height before it was ever drawn: roughly a line of 18 px per 60 characters. */
export function rowEstimate(entry: ChatEntry | undefined): number {
  const lines = (text: string) => text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 60)), 0);
  switch (entry?.kind) {
    case undefined:
      return 0;
    case 'user':
      return entry.label ? 34 : 34 + lines(entry.text) * 18;
    case 'assistant':
      return (entry.continued ? 0 : 20) + Math.min(4000, lines(entry.markdown) * 18);
    case 'tool':
      // The header, the output box (at most 14 lines high), the bars under it.
      return 28 + (entry.output ? Math.min(14, lines(entry.output)) * 18 + 30 : 0) + (entry.edit || entry.version !== undefined ? 22 : 0) + (entry.foldedOutput !== undefined ? 22 : 0);
    case 'error':
      return 60;
    default:
      return 22;
  }
}
