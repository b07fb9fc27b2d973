/**
 * An expected failure of a memory command. `message` is the exact model-facing text (it never
 * contains a host path or a stack); the engine turns it into `{is_error: true, content}` in one
 * place (engine.ts).
 */
export class MemoryError extends Error {
  constructor(readonly modelText: string) {
    super(modelText);
    this.name = 'MemoryError';
  }
}

export function isMemoryError(e: unknown): e is MemoryError {
  return e instanceof MemoryError;
}

/**
 * The file an edit read is no longer what is on disk right before the write (someone outside the
 * engine's lock wrote it). The engine runs the command once more from scratch; a second one
 * reaches the model as this sentence.
 */
export class ChangedMeanwhileError extends MemoryError {
  constructor(modelText: string) {
    super(modelText);
    this.name = 'ChangedMeanwhileError';
  }
}

/** An error as a sentence for the user's notifications: a MemoryError's text without its `Error: `. */
export function userFacingReason(e: unknown): string {
  if (isMemoryError(e)) return e.modelText.replace(/^Error: /, '');
  return e instanceof Error ? e.message : String(e);
}
