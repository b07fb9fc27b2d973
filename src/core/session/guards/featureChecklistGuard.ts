/**
 * Keeps the agent honest about scope: in `/memories/features.json` it may only flip `passes` of
 * existing features and append new valid ones. Everything else (removing, rewording, reordering,
 * breaking the JSON, deleting or moving the file) is refused, so a session cannot quietly shrink
 * the checklist to declare victory. The comparison is structural, so reformatting passes.
 */
import { parseFeatures, type Feature } from '../features';
import { memoryPathOf } from '../memoryFiles';
import { clipText } from '../templates';
import type { ProposedChange, WriteGuard } from '../../memory/types';

const PATH = memoryPathOf('features');
const ALLOWED = `Allowed changes to ${PATH}: set "passes" of an existing feature (only after verifying it end-to-end) and append new features (with "passes": false) at the end of the array.`;

export function createFeatureChecklistGuard(): WriteGuard {
  return { paths: [PATH], check: checkFeatureChecklistChange };
}

export function checkFeatureChecklistChange(change: ProposedChange): string | undefined {
  if (change.after === undefined) {
    return `${PATH} is the project's feature checklist and cannot be deleted, moved or overwritten by a move. ${ALLOWED}`;
  }
  const after = parseFeatures(change.after);
  if (!after.ok) return `The change was refused because ${PATH} would be invalid: ${after.problem}. Nothing was written. ${ALLOWED}`;
  if (change.before === undefined) return refusal(passingNewFeature([], after.features));
  const before = parseFeatures(change.before);
  // The agent can never write an invalid checklist, so an invalid one was broken by hand: any
  // valid replacement is a repair, not a way around the rule.
  if (!before.ok) return undefined;
  return refusal(firstForbiddenDifference(before.features, after.features) ?? passingNewFeature(before.features, after.features));
}

function refusal(problem: string | undefined): string | undefined {
  return problem ? `The change was refused: it would ${problem}. Nothing was written. ${ALLOWED}` : undefined;
}

/** A new feature must be verified before it passes: it may not arrive already passing. */
function passingNewFeature(before: readonly Feature[], after: readonly Feature[]): string | undefined {
  const known = new Set(before.map((f) => f.id));
  const passing = after.find((f) => !known.has(f.id) && f.passes === true);
  return passing ? `add feature ${quote(passing.id)} already passing (new features start with "passes": false and pass only once verified)` : undefined;
}

/** Describes the first difference that is not a `passes` flip or an append, if any. */
function firstForbiddenDifference(before: readonly Feature[], after: readonly Feature[]): string | undefined {
  const afterIndex = new Map(after.map((f, i) => [f.id, i]));
  for (let i = 0; i < before.length; i++) {
    const old = before[i];
    const at = afterIndex.get(old.id);
    if (at === undefined) {
      return after[i] !== undefined && sameExceptPasses(old, { ...after[i], id: old.id })
        ? `change the id of feature ${quote(old.id)} to ${quote(after[i].id)}`
        : `remove feature ${quote(old.id)}`;
    }
    if (at !== i) return `move feature ${quote(old.id)} from position ${i + 1} to position ${at + 1}`;
    const changed = changedKeys(old, after[i]);
    if (changed.length > 0) return `change ${changed.map(quote).join(', ')} of feature ${quote(old.id)}`;
  }
  return undefined;
}

/** Ids come from the file: keep refusal sentences short whatever they hold. */
function quote(id: string): string {
  return JSON.stringify(clipText(id, 60));
}

function sameExceptPasses(a: Feature, b: Feature): boolean {
  return changedKeys(a, b).length === 0;
}

/** Keys other than `passes` whose values differ (deeply), in a stable order. */
function changedKeys(a: Feature, b: Feature): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => k !== 'passes');
  return keys.filter((k) => !deepEqual(a[k], b[k]));
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
