/**
 * The feature checklist (`/memories/features.json`): a JSON array of
 * `{"id","category","description","steps":[...],"passes":false}`. Parsing reports the first
 * problem as one sentence that is safe to show to the model and to the user.
 */

export interface Feature {
  id: string;
  category: string;
  description: string;
  steps: string[];
  passes: boolean;
  /** Hand-added properties are kept as they are (the guard treats them like the wording). */
  [extra: string]: unknown;
}

export type FeaturesParse = { ok: true; features: Feature[] } | { ok: false; problem: string };

export function parseFeatures(text: string): FeaturesParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    // JSON.parse messages name only a position and a token: nothing host-specific.
    return { ok: false, problem: `it is not valid JSON (${(e as Error).message})` };
  }
  return validateFeatures(value);
}

export function validateFeatures(value: unknown): FeaturesParse {
  if (!Array.isArray(value)) return { ok: false, problem: 'it must be a JSON array of feature objects' };
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const problem = featureProblem(value[i]);
    if (problem) return { ok: false, problem: `item ${i + 1} ${problem}` };
    const id = (value[i] as Feature).id;
    if (seen.has(id)) return { ok: false, problem: `the id "${id}" is used more than once (ids must be unique)` };
    seen.add(id);
  }
  return { ok: true, features: value as Feature[] };
}

function featureProblem(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'is not an object';
  const f = item as Record<string, unknown>;
  for (const key of ['id', 'category', 'description'] as const) {
    if (typeof f[key] !== 'string' || (f[key] as string).trim() === '') return `needs a non-empty string "${key}"`;
  }
  if (!Array.isArray(f.steps) || !f.steps.every((s) => typeof s === 'string')) {
    return 'needs "steps" as an array of strings';
  }
  if (typeof f.passes !== 'boolean') return 'needs "passes" as true or false';
  return undefined;
}

/** The checklist as the initializer writes it: two-space indent, trailing newline. */
export function formatFeatures(features: readonly Feature[]): string {
  return `${JSON.stringify(features, null, 2)}\n`;
}

export interface FeatureSummary {
  total: number;
  passing: number;
  /** The first feature in list order that does not pass yet: the next one to work on. */
  nextFailing: Feature | undefined;
}

export function summarizeFeatures(features: readonly Feature[]): FeatureSummary {
  return {
    total: features.length,
    passing: features.filter((f) => f.passes).length,
    nextFailing: features.find((f) => !f.passes),
  };
}

/**
 * Sets `passes` of one feature and returns the new file text, keeping the file's own layout so
 * a tick in the tree shows up in a diff as one changed line.
 */
export function withFeaturePasses(text: string, id: string, passes: boolean): string {
  const parsed = parseFeatures(text);
  if (!parsed.ok) throw new Error(`features.json cannot be updated: ${parsed.problem}.`);
  const feature = parsed.features.find((f) => f.id === id);
  if (!feature) throw new Error(`features.json has no feature with the id "${id}".`);
  feature.passes = passes;
  return reformatLike(text, parsed.features);
}

/** Serializes `value` in the layout of `original`: its indent (or one line), line ends, final newline. */
function reformatLike(original: string, value: unknown): string {
  const body = original.trim();
  const multiLine = body.includes('\n');
  const indent = multiLine ? (/^[ \t]+/m.exec(body)?.[0] ?? '  ') : undefined;
  const eol = original.includes('\r\n') ? '\r\n' : '\n';
  const json = JSON.stringify(value, null, indent).replace(/\n/g, eol);
  return /\n$/.test(original) ? json + eol : json;
}
