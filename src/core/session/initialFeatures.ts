/**
 * A first feature checklist derived from the project goal, for when the user does not ask Claude
 * to draft one: every list item of the goal becomes a feature; a goal without a list becomes one
 * feature. The agent may later append more (the guard forbids rewording these).
 */
import type { Feature } from './features';
import { clipText } from './templates';

const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+?)\s*$/;
const MAX_DESCRIPTION = 300;

export function featuresFromGoal(goal: string): Feature[] {
  const lines = goal.split(/\r?\n/);
  const items = lines.map((l) => LIST_ITEM.exec(l)?.[1]).filter((s): s is string => !!s);
  const descriptions = items.length > 0 ? items : [firstSentence(goal)].filter((s) => s !== '');
  return descriptions
    .map((text) => clipText(text, MAX_DESCRIPTION))
    .map((description, i) => ({
      id: `F${String(i + 1).padStart(3, '0')}`,
      category: 'functional',
      description,
      steps: [
        'Start the project as /memories/startup.md describes',
        `Use it as a user would to check: ${description}`,
        'Confirm the result, then run the project tests',
      ],
      passes: false,
    }));
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  return end > 0 ? flat.slice(0, end + 1) : flat;
}
