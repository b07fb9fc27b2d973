/**
 * Text handling that keeps untouched bytes exact: a UTF-8 BOM is remembered and written back,
 * line endings are never normalised except in text the model inserts, which adopts the file's
 * dominant ending.
 */
export type Eol = '\n' | '\r\n';

export interface DecodedText {
  text: string;
  bom: boolean;
}

const BOM = '\uFEFF';
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The file's text, or undefined when it is not UTF-8 text (invalid UTF-8 or a NUL byte). */
export function decodeText(bytes: Uint8Array): DecodedText | undefined {
  if (bytes.includes(0)) return undefined;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return undefined;
  }
  return text.startsWith(BOM) ? { text: text.slice(1), bom: true } : { text, bom: false };
}

export function encodeText(text: string, bom: boolean): Uint8Array {
  return encoder.encode(bom ? BOM + text : text);
}

export function utf8ByteLength(text: string): number {
  return encoder.encode(text).length;
}

/**
 * The file's lines as shown to the model: split on `\n`, a `\r` before it dropped, and no phantom
 * empty line after a final newline. `''` has no lines.
 */
export function displayLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Number of lines as `displayLines` counts them, without building them. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** 1-based line number of the character at `index`. */
export function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Offset just after the terminator of line `line` (1-based); 0 for line 0. */
export function offsetAfterLine(text: string, line: number): number {
  let offset = 0;
  for (let n = 0; n < line; n++) {
    const i = text.indexOf('\n', offset);
    if (i < 0) return text.length;
    offset = i + 1;
  }
  return offset;
}

/** CRLF when most line breaks are CRLF, else LF (also for files without line breaks). */
export function dominantEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text[i - 1] === '\r') crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Rewrites every line break of `s` (LF or CRLF) as `eol`. */
export function withEol(s: string, eol: Eol): string {
  return s.replace(/\r?\n/g, eol);
}
