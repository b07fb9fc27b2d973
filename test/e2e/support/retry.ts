/** This machine is shared: under load the workbench can be slow to list palette or tree rows. */
export const UI_TIMEOUT = 30_000;

/** A UI action once more after a miss: a keystroke or click can land while the workbench is busy. */
export async function again<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch {
    return action();
  }
}
