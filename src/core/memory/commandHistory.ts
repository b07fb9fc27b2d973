/**
 * How an agent's change command becomes history: what it will touch (captured before it runs,
 * recorded after), and the copy history keeps of a content with secrets in it.
 */
import type { HistoryRecorder, Captured } from './history/recorder';
import type { Author, HistoryOp } from './history/types';
import { parseMemoryPath } from './paths';
import { redactSecrets } from './redaction';
import { decodeText, encodeText } from './text';
import type { MemoryCommandInput } from './types';
import { isRedactedOutput } from './writer';

/** What a change command will touch, for history: captured before it runs, recorded after. */
export type ChangeTarget = { kind: 'write'; op: HistoryOp; rel: string } | { kind: 'delete'; rel: string } | { kind: 'rename'; rel: string; to: string };

export function changeTarget(input: MemoryCommandInput): ChangeTarget | undefined {
  try {
    switch (input.command) {
      case 'create':
      case 'str_replace':
      case 'insert': {
        const path = parseMemoryPath(input.path);
        return path.isRoot ? undefined : { kind: 'write', op: input.command, rel: path.rel };
      }
      case 'delete': {
        const path = parseMemoryPath(input.path);
        return path.isRoot ? undefined : { kind: 'delete', rel: path.rel };
      }
      case 'rename': {
        const from = parseMemoryPath(input.old_path, 'old_path');
        const to = parseMemoryPath(input.new_path, 'new_path');
        return from.isRoot || to.isRoot ? undefined : { kind: 'rename', rel: from.rel, to: to.rel };
      }
      default:
        return undefined;
    }
  } catch {
    // The handler refuses the same path with the right sentence.
    return undefined;
  }
}

/** Records the version of a change command's target. */
export function recordChange(recorder: HistoryRecorder, target: ChangeTarget, before: Captured[], author: Author): Promise<number | undefined> {
  switch (target.kind) {
    case 'write':
      return recorder.written(target.op, target.rel, before, author);
    case 'delete':
      return recorder.deleted(target.rel, before, author);
    case 'rename':
      return recorder.renamed(target.rel, target.to, before, author);
  }
}

/** History's copy of a text with secrets in it: redacted, like everything the agent writes. */
export function redactedCopy(content: Uint8Array): Uint8Array | undefined {
  // What the engine's own text write path just wrote went through this very redaction.
  if (isRedactedOutput(content)) return undefined;
  const decoded = decodeText(content);
  if (decoded === undefined) return undefined;
  const redaction = redactSecrets(decoded.text);
  return redaction.counts.size > 0 ? encodeText(redaction.text, decoded.bom) : undefined;
}
