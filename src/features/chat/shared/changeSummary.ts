/**
 * "What changed, at a glance": the model of the summary above the chat's composer (pure: no
 * `vscode`, no DOM; the webview draws `ChangeSummaryView`, the extension keeps `SummaryState`).
 *
 * Scope: the summary counts from a base checkpoint, the one taken before the oldest message
 * whose changes are not all reviewed yet. A message sent while nothing is left to review (every
 * row kept or undone, or nothing changed) moves the base to its own checkpoint; a message sent
 * while rows are still open leaves the base where it is, so its changes add up with the earlier
 * ones until the user keeps or undoes them (docs/chat.md). Rows are what differs between the base
 * and now: workspace files (the checkpoint's git diff, so what commands did is in it), memory files
 * (history since the base's position), and the features whose `passes` flipped in features.json.
 */

export type SummaryRowKind = 'file' | 'memory';
export type SummaryChange = 'modified' | 'created' | 'deleted';

/** One changed file as the extension observed it against the base. */
export interface ObservedChange {
  kind: SummaryRowKind;
  /** Folder-relative for files, store-relative for memory files. */
  path: string;
  change: SummaryChange;
  added: number;
  removed: number;
  binary?: boolean;
  /** The content's identity now ('' when deleted): a Keep holds while it is unchanged. */
  stamp: string;
  /** Undo is not possible (a memory file whose version then is no longer in history). */
  cannotUndo?: string;
}

/** A Keep or an Undo of one row, remembered with the chat. */
export interface SummaryDecision {
  kind: SummaryRowKind;
  path: string;
  decision: 'kept' | 'undone';
  /** The row's stamp when it was decided: a later change shows the row again. */
  stamp: string;
}

/** Where the summary counts from. */
export interface SummaryBase {
  checkpoint: number;
  /** The workspace folder (its Uri) the checkpoint is of. */
  folder: string;
  /** The user message the checkpoint was taken before (its row id) and its text. */
  entryId: string;
  message: string;
}

/** What the extension keeps per chat (saved with it: SavedConversation.changes). */
export interface SummaryState {
  base?: SummaryBase;
  decisions: SummaryDecision[];
  /** Rows undone since Claude's last turn: told with the next message (kept across a reload too). */
  untold?: UndoneChange[];
}

/** A row undone from the summary, as Claude is told about it. */
export interface UndoneChange {
  kind: SummaryRowKind;
  path: string;
  change: SummaryChange;
}

/** One row of the summary as the webview draws it. */
export interface SummaryRow {
  kind: SummaryRowKind;
  path: string;
  change: SummaryChange;
  added: number;
  removed: number;
  binary?: true;
  /** Features whose `passes` flipped ("F002 now passes"), on the features.json row. */
  note?: string;
  /** Why this row has no Undo. */
  cannotUndo?: string;
}

/** A feature of the checklist whose `passes` differs between the base and now. */
export interface FeatureFlip {
  id: string;
  passes: boolean;
}

export interface ChangeSummaryView {
  /** The message the summary counts from (shortened), for the header's hover. */
  since: string;
  rows: SummaryRow[];
  files: number;
  memory: number;
  features: number;
  /** Rows reviewed since the base (shown as a quiet count). */
  kept: number;
  undone: number;
  /** An answer is running: the rows may still grow. */
  running: boolean;
  /** A Keep / Undo is under way: the buttons wait. */
  busy?: true;
  /**
   * Files changed since the base that checkpoints do not cover (ignored by .gitignore), so they
   * are not in the list and neither Undo nor Rewind can bring them back: the first few, and how many.
   */
  notCovered?: { paths: string[]; total: number };
}

export const EMPTY_SUMMARY_STATE: SummaryState = Object.freeze({ decisions: [] }) as SummaryState;

/** The store-relative path of the checklist (core/session/memoryFiles.ts's SESSION_FILES.features). */
export const FEATURES_FILE = 'features.json';

/** Longest row path accepted from the webview. */
export const MAX_SUMMARY_PATH_CHARS = 1_000;
/** Most rows the summary lists (the counts stay exact). */
export const MAX_SUMMARY_ROWS = 200;

function same(a: { kind: SummaryRowKind; path: string }, b: { kind: SummaryRowKind; path: string }): boolean {
  return a.kind === b.kind && a.path === b.path;
}

/** The rows still to review: observed changes, minus those kept while their content is unchanged. */
export function openRows(observed: readonly ObservedChange[], decisions: readonly SummaryDecision[]): ObservedChange[] {
  return observed.filter((o) => !decisions.some((d) => d.decision === 'kept' && same(d, o) && d.stamp === o.stamp));
}

/**
 * The base after checkpoint `next` was taken before message `entryId`: moved to it when nothing
 * is left to review (`open` rows at that moment: 0), else unchanged (the changes add up).
 */
export function afterCheckpoint(state: SummaryState, next: SummaryBase, open: number): SummaryState {
  if (state.base !== undefined && open > 0 && state.base.folder === next.folder) return state;
  return { base: { ...next }, decisions: [], ...(state.untold !== undefined ? { untold: state.untold } : {}) };
}

/** Records Keep or Undo of `rows` (their stamps now); an earlier decision on the same row is replaced. */
export function decide(state: SummaryState, rows: readonly ObservedChange[], decision: 'kept' | 'undone'): SummaryState {
  const decisions = state.decisions.filter((d) => !rows.some((r) => same(d, r)));
  for (const r of rows) decisions.push({ kind: r.kind, path: r.path, decision, stamp: decision === 'undone' ? '' : r.stamp });
  return { ...state, decisions };
}

/**
 * What the webview draws; undefined when there is nothing to show (no base, nothing changed or
 * left, no file outside the checkpoints changed). `notCovered`: ignored files changed since.
 */
export function summaryView(
  state: SummaryState,
  observed: readonly ObservedChange[],
  flips: readonly FeatureFlip[],
  running: boolean,
  notCovered: { paths: string[]; total: number } = { paths: [], total: 0 },
): ChangeSummaryView | undefined {
  if (state.base === undefined) return undefined;
  const open = openRows(observed, state.decisions);
  const kept = state.decisions.filter((d) => d.decision === 'kept' && !open.some((o) => same(o, d))).length;
  // An undone row that shows again was changed again: it counts as open, not undone.
  const undone = state.decisions.filter((d) => d.decision === 'undone' && !open.some((o) => same(o, d))).length;
  if (open.length === 0 && kept === 0 && undone === 0 && notCovered.total === 0) return undefined;
  const featuresOpen = open.some((o) => o.kind === 'memory' && o.path === FEATURES_FILE);
  const rows: SummaryRow[] = open.slice(0, MAX_SUMMARY_ROWS).map((o) => ({
    kind: o.kind,
    path: o.path,
    change: o.change,
    added: o.added,
    removed: o.removed,
    ...(o.binary ? { binary: true as const } : {}),
    ...(o.kind === 'memory' && o.path === FEATURES_FILE && flips.length > 0 ? { note: flipNote(flips) } : {}),
    ...(o.cannotUndo !== undefined ? { cannotUndo: o.cannotUndo } : {}),
  }));
  return {
    since: shortMessage(state.base.message),
    rows,
    files: open.filter((o) => o.kind === 'file').length,
    memory: open.filter((o) => o.kind === 'memory').length,
    features: featuresOpen ? flips.length : 0,
    kept,
    undone,
    running,
    ...(notCovered.total > 0 ? { notCovered: { paths: [...notCovered.paths], total: notCovered.total } } : {}),
  };
}

/** The line under the summary about what checkpoints do not cover: "Not covered by checkpoints (ignored): todos.json". */
export function notCoveredLine(notCovered: { paths: string[]; total: number }): string {
  const more = notCovered.total - notCovered.paths.length;
  return `Not covered by checkpoints (ignored by .gitignore), so Undo and Rewind leave ${notCovered.total === 1 ? 'it' : 'them'}: ${notCovered.paths.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** "3 files changed · 2 memory files · 1 feature" (the parts that are not zero). */
export function summaryLine(view: Pick<ChangeSummaryView, 'files' | 'memory' | 'features'>): string {
  const parts: string[] = [];
  if (view.files > 0) parts.push(`${view.files} ${view.files === 1 ? 'file' : 'files'} changed`);
  if (view.memory > 0) parts.push(`${view.memory} memory ${view.memory === 1 ? 'file' : 'files'}`);
  if (view.features > 0) parts.push(`${view.features} ${view.features === 1 ? 'feature' : 'features'}`);
  return parts.length === 0 ? 'No changes to review' : parts.join(' · ');
}

/** "F002 now passes, F003 no longer passes" (the first three, then "and N more"). */
export function flipNote(flips: readonly FeatureFlip[]): string {
  const named = flips.slice(0, 3).map((f) => `${f.id} ${f.passes ? 'now passes' : 'no longer passes'}`);
  return flips.length > 3 ? `${named.join(', ')} and ${flips.length - 3} more` : named.join(', ');
}

/**
 * The features whose `passes` differs between two checklist texts (undefined: no file). A
 * feature added or removed counts when it passes on the side it is on. Unreadable JSON: none.
 */
export function featureFlips(before: string | undefined, after: string | undefined): FeatureFlip[] {
  const then = passesById(before);
  const now = passesById(after);
  if (then === undefined || now === undefined) return [];
  const flips: FeatureFlip[] = [];
  for (const [id, passes] of now) if ((then.get(id) ?? false) !== passes) flips.push({ id, passes });
  for (const [id, passes] of then) if (!now.has(id) && passes) flips.push({ id, passes: false });
  return flips;
}

/** Each feature's description in a checklist text (empty when it is not one). */
export function featureDescriptions(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of checklistItems(text) ?? []) if (typeof item.description === 'string') out.set(item.id, item.description);
  return out;
}

function passesById(text: string | undefined): Map<string, boolean> | undefined {
  if (text === undefined) return new Map();
  const items = checklistItems(text);
  return items === undefined ? undefined : new Map(items.map((item) => [item.id, item.passes === true]));
}

/** The items of a checklist text that have an id (undefined: no text, or not a JSON array). */
function checklistItems(text: string | undefined): ({ id: string } & Record<string, unknown>)[] | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  return value.filter((item): item is { id: string } & Record<string, unknown> => typeof item === 'object' && item !== null && typeof (item as { id?: unknown }).id === 'string');
}

/**
 * In how many of the steps (base → each later message's checkpoint → now; `steps` are the paths
 * each changed, oldest first) `path` changed. More than one: undoing it to the base takes later
 * answers' work on it too, so the user is asked first.
 */
export function stepsChanging(path: string, steps: readonly ReadonlySet<string>[]): number {
  return steps.filter((s) => s.has(path)).length;
}

/** The note for Claude about rows undone from the summary since its last turn (undefined: none). */
export function undoneChangesNote(undone: readonly UndoneChange[]): string | undefined {
  if (undone.length === 0) return undefined;
  const lines = undone.map((u) => {
    const name = u.kind === 'memory' ? `/memories/${u.path}` : u.path;
    if (u.change === 'created') return `- ${name}: created since, removed again.`;
    if (u.change === 'deleted') return `- ${name}: deleted since, brought back.`;
    return `- ${name}: back to its content before the change.`;
  });
  return (
    `[Note from the chat: since your last turn the user undid ${undone.length === 1 ? 'this change' : 'these changes'} with the chat's change summary ` +
    `(back to how ${undone.length === 1 ? 'it was' : 'they were'} before the message the summary counts from, including what commands did). View a file again before relying on it.\n${lines.join('\n')}]`
  );
}

function shortMessage(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > 80 ? `${chars.slice(0, 79).join('')}…` : chars.join('');
}

// ---- validation ----------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A row path as the webview may send it back: short, relative, no control characters or `..`. */
export function isSummaryPath(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_SUMMARY_PATH_CHARS) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value) || value.startsWith('/')) return false;
  return value.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

const KINDS = new Set<unknown>(['file', 'memory']);
const CHANGES = new Set<unknown>(['modified', 'created', 'deleted']);

/** A saved summary state read back (Chat History); undefined when it is not one. */
export function parseSummaryState(value: unknown): SummaryState | undefined {
  if (!isRecord(value) || !Array.isArray(value.decisions)) return undefined;
  const decisions: SummaryDecision[] = [];
  for (const d of value.decisions) {
    if (!isRecord(d) || !KINDS.has(d.kind) || typeof d.path !== 'string' || (d.decision !== 'kept' && d.decision !== 'undone') || typeof d.stamp !== 'string') return undefined;
    decisions.push({ kind: d.kind as SummaryRowKind, path: d.path, decision: d.decision, stamp: d.stamp });
  }
  let untold: UndoneChange[] | undefined;
  if (value.untold !== undefined) {
    if (!Array.isArray(value.untold)) return undefined;
    untold = [];
    for (const u of value.untold) {
      if (!isRecord(u) || !KINDS.has(u.kind) || typeof u.path !== 'string' || !CHANGES.has(u.change)) return undefined;
      untold.push({ kind: u.kind as SummaryRowKind, path: u.path, change: u.change as SummaryChange });
    }
  }
  const rest = untold === undefined ? { decisions } : { decisions, untold };
  const b = value.base;
  if (b === undefined) return rest;
  if (!isRecord(b) || !Number.isSafeInteger(b.checkpoint) || typeof b.folder !== 'string' || typeof b.entryId !== 'string' || typeof b.message !== 'string') return undefined;
  return { base: { checkpoint: b.checkpoint as number, folder: b.folder, entryId: b.entryId, message: b.message }, ...rest };
}

/** The view's shape, as the webview checks it (the extension made it; a mismatch fails loudly). */
export function isSummaryView(value: unknown): value is ChangeSummaryView {
  if (!isRecord(value) || !Array.isArray(value.rows) || typeof value.since !== 'string' || typeof value.running !== 'boolean') return false;
  if (!['files', 'memory', 'features', 'kept', 'undone'].every((k) => typeof value[k] === 'number')) return false;
  return value.rows.every((r) => isRecord(r) && KINDS.has(r.kind) && typeof r.path === 'string' && CHANGES.has(r.change) && typeof r.added === 'number' && typeof r.removed === 'number');
}
