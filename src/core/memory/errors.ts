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
