/** fast-check generators for feature checklists and for edit scripts over them. */
import * as fc from 'fast-check';
import type { Feature } from '../../../src/core/session/features';

const nonBlank = fc.string({ minLength: 1, maxLength: 24 }).filter((s) => s.trim() !== '');

export const featureArb: fc.Arbitrary<Feature> = fc.record({
  id: fc.oneof(fc.stringMatching(/^F\d{3}$/), nonBlank),
  category: fc.constantFrom('functional', 'ui', 'infra', 'security'),
  description: nonBlank,
  steps: fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }),
  passes: fc.boolean(),
});

/** A feature as the agent may append it: not passing yet. */
export const newFeatureArb: fc.Arbitrary<Feature> = featureArb.map((f) => ({ ...f, passes: false }));

export const featureListArb = (minLength = 0): fc.Arbitrary<Feature[]> =>
  fc.uniqueArray(featureArb, { selector: (f) => f.id, minLength, maxLength: 10 });

/** The layouts a person or a model may write JSON in: all must count as the same checklist. */
export const layoutArb = fc.constantFrom<(v: unknown) => string>(
  (v) => JSON.stringify(v, null, 2),
  (v) => `${JSON.stringify(v, null, 2)}\n`,
  (v) => JSON.stringify(v),
  (v) => JSON.stringify(v, null, 4),
  (v) => `${JSON.stringify(v, null, '\t')}\r\n`.replace(/\n(?!$)/g, '\r\n'),
);

/** Edits the guard must allow: a flip of `passes`, an append of a new valid feature, a relayout. */
export type AllowedOp =
  | { op: 'flip'; at: number }
  | { op: 'append'; feature: Feature }
  | { op: 'relayout' };

export const allowedOpArb: fc.Arbitrary<AllowedOp> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('append' as const), feature: newFeatureArb }),
  fc.constant({ op: 'relayout' as const }),
);

/** Applies an allowed op; returns undefined when it does not apply (e.g. duplicate id). */
export function applyAllowed(list: Feature[], op: AllowedOp): Feature[] | undefined {
  switch (op.op) {
    case 'flip':
      if (list.length === 0) return undefined;
      return list.map((f, i) => (i === op.at % list.length ? { ...f, passes: !f.passes } : f));
    case 'append':
      return list.some((f) => f.id === op.feature.id) ? undefined : [...list, op.feature];
    case 'relayout':
      return list;
  }
}

/** Edits the guard must refuse; each one is applied to a list that allows it. */
export type ForbiddenOp =
  | { op: 'remove'; at: number }
  | { op: 'unappend' }
  | { op: 'reorder'; from: number; to: number }
  | { op: 'reword'; at: number; field: 'id' | 'category' | 'description' | 'steps'; text: string }
  | { op: 'addProperty'; at: number }
  | { op: 'duplicateId'; at: number; feature: Feature }
  | { op: 'appendPassing'; feature: Feature }
  | { op: 'invalid'; kind: 'truncate' | 'object' | 'missingField' | 'badPasses' | 'notJson' };

export const forbiddenOpArb: fc.Arbitrary<ForbiddenOp> = fc.oneof(
  fc.record({ op: fc.constant('remove' as const), at: fc.nat() }),
  fc.constant({ op: 'unappend' as const }),
  fc.record({ op: fc.constant('reorder' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('reword' as const), at: fc.nat(), field: fc.constantFrom('id' as const, 'category' as const, 'description' as const, 'steps' as const), text: nonBlank }),
  fc.record({ op: fc.constant('addProperty' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('duplicateId' as const), at: fc.nat(), feature: featureArb }),
  fc.record({ op: fc.constant('appendPassing' as const), feature: featureArb }),
  fc.record({ op: fc.constant('invalid' as const), kind: fc.constantFrom('truncate' as const, 'object' as const, 'missingField' as const, 'badPasses' as const, 'notJson' as const) }),
);

/**
 * The new file text after a forbidden op, or undefined when the op cannot apply to this list
 * (e.g. reordering a one-item list). Structural ops are rendered with `layout`.
 */
export function applyForbidden(list: Feature[], op: ForbiddenOp, layout: (v: unknown) => string): string | undefined {
  const n = list.length;
  switch (op.op) {
    case 'remove':
      return n === 0 ? undefined : layout(list.filter((_, i) => i !== op.at % n));
    case 'appendPassing':
      return list.some((f) => f.id === op.feature.id) ? undefined : layout([...list, { ...op.feature, passes: true }]);
    case 'unappend':
      return n === 0 ? undefined : layout(list.slice(0, -1));
    case 'reorder': {
      if (n < 2) return undefined;
      const from = op.from % n;
      const to = op.to % n === from ? (from + 1) % n : op.to % n;
      const copy = [...list];
      const [moved] = copy.splice(from, 1);
      copy.splice(to, 0, moved);
      return layout(copy);
    }
    case 'reword': {
      if (n === 0) return undefined;
      const at = op.at % n;
      const old = list[at];
      const value = op.field === 'steps' ? [...old.steps, op.text] : `${old[op.field]}${op.text}`;
      if (op.field === 'id' && list.some((f) => f.id === value)) return undefined;
      return layout(list.map((f, i) => (i === at ? { ...f, [op.field]: value } : f)));
    }
    case 'addProperty':
      return n === 0 ? undefined : layout(list.map((f, i) => (i === op.at % n ? { ...f, notes: 'done, trust me' } : f)));
    case 'duplicateId':
      return n === 0 ? undefined : layout([...list, { ...op.feature, id: list[op.at % n].id }]);
    case 'invalid':
      switch (op.kind) {
        case 'truncate': {
          const text = layout(list);
          return text.slice(0, Math.max(0, text.trimEnd().length - 1));
        }
        case 'object':
          return layout({ features: list });
        case 'missingField':
          return n === 0 ? layout([{ id: 'X', category: 'c', description: 'd', steps: [] }]) : layout(list.map((f, i) => (i === 0 ? { ...f, steps: undefined } : f)));
        case 'badPasses':
          return n === 0 ? layout([{ id: 'X', category: 'c', description: 'd', steps: [], passes: 'yes' }]) : layout(list.map((f, i) => (i === 0 ? { ...f, passes: 'yes' } : f)));
        case 'notJson':
          return `# Features\n${list.map((f) => `- [${f.passes ? 'x' : ' '}] ${f.id}`).join('\n')}`;
      }
  }
}
