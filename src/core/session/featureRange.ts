/** Where a feature sits in features.json, so an editor can land on it. */
export interface TextSpan {
  /** Zero-based line and column of the feature's `"id": "<id>"`, and its length in characters. */
  line: number;
  column: number;
  length: number;
}

/** The span of `"id": "<id>"` in the file's text, or undefined when the id is not there. */
export function rangeOfFeature(text: string, id: string): TextSpan | undefined {
  const pattern = new RegExp(`"id"\\s*:\\s*${JSON.stringify(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  const match = pattern.exec(text);
  if (!match) return undefined;
  const line = text.slice(0, match.index).split('\n').length - 1;
  const column = match.index - (text.lastIndexOf('\n', match.index - 1) + 1);
  return { line, column, length: match[0].length };
}
