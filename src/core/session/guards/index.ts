/**
 * The checklist guards the extension puts in front of the agent's memory writes when the
 * `claudeMemory.checklistGuard` setting is on. Hand edits (editor, tree, Features view) never go
 * through them.
 */
import type { WriteGuard } from '../../memory/types';
import { createFeatureChecklistGuard } from './featureChecklistGuard';
import { createProgressLogGuard } from './progressLogGuard';

export { checkFeatureChecklistChange, createFeatureChecklistGuard } from './featureChecklistGuard';
export { checkProgressLogChange, createProgressLogGuard } from './progressLogGuard';

export function createChecklistGuards(): WriteGuard[] {
  return [createFeatureChecklistGuard(), createProgressLogGuard()];
}
